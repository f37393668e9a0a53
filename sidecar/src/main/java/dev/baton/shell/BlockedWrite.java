package dev.baton.shell;

import dev.baton.lock.Holder;

/**
 * A file a part of a command would write (or a git command would reach) while another live session holds it.
 *
 * @param file the canonical file
 * @param holder who holds it, as denials show it
 * @param part the part of the command that reaches it, as written
 */
record BlockedWrite(String file, Holder holder, String part) {
}

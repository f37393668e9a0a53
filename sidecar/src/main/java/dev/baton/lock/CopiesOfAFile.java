package dev.baton.lock;

import java.util.List;

/** One file of a repository held in several of its copies at once: changes that will meet at a merge. */
public record CopiesOfAFile(String repository, String path, List<HeldCopy> copies) {
}

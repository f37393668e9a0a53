package dev.baton.message;

/** A message as stored, and how many sessions can read it (a broadcast reaches all running sessions but the sender). */
public record SentMessage(Message message, int recipients) {
}

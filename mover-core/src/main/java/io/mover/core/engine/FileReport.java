package io.mover.core.engine;

import java.util.Optional;

import io.mover.spi.ErrorCode;

import static java.util.Objects.requireNonNull;

/**
 * How one file of a unit ended, as the engine reports it to whoever records outcomes (the durable job service).
 *
 * @param path the source-relative path
 * @param outcome how it ended
 * @param bytes bytes committed (0 unless transferred)
 * @param attempts how many times it was tried
 * @param code the error code when it failed
 * @param message the one-line reason when it failed or was skipped
 */
public record FileReport(String path, Outcome outcome, long bytes, int attempts, Optional<ErrorCode> code, Optional<String> message) {
    public enum Outcome { TRANSFERRED, SKIPPED, FAILED }

    public FileReport {
        requireNonNull(path, "path is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
        attempts = Math.max(1, attempts);
    }

    /** Receives reports from transfer threads, possibly concurrently; must return quickly. */
    @FunctionalInterface
    public interface Listener {
        Listener NONE = report -> {};

        void onFile(FileReport report);
    }
}

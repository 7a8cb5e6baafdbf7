package io.mover.core.plugin;

import static java.util.Objects.requireNonNull;

/**
 * A plugin that was not loaded, and why; shown by {@code mover plugins} and logged at startup. The
 * other plugins load regardless.
 *
 * @param location the plugin directory (or jar, or {@code classpath}) the failure belongs to
 * @param reason one line, naming the cause and, where it can, what to do
 */
public record PluginLoadFailure(String location, String reason) {
    public PluginLoadFailure {
        requireNonNull(location, "location is null");
        requireNonNull(reason, "reason is null");
    }
}

package io.mover.plugins.tcp;

import java.util.List;

/** A System.Logger that keeps what it is told, for assertions on log lines. */
public final class ListLogger implements System.Logger {
    private final List<String> lines;

    public ListLogger(List<String> lines) {
        this.lines = lines;
    }

    @Override
    public String getName() {
        return "test";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public void log(Level level, java.util.ResourceBundle bundle, String message, Throwable thrown) {
        lines.add(level + " " + message + (thrown == null ? "" : " " + thrown));
    }

    @Override
    public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
        lines.add(level + " " + (params == null || params.length == 0 ? format : java.text.MessageFormat.format(format, params)));
    }
}

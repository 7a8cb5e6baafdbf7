package io.mover.cli;

import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.slf4j.LoggerFactory;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;

/**
 * Routes the logs of the engine and plugins to stderr at the level asked, one line each, so they
 * never mix into stdout (which scripts parse). The engine logs through {@link System.Logger}, which
 * the JDK backs with java.util.logging when no other backend is installed; libraries that log
 * through SLF4J reach logback, configured by logback.xml and levelled here too.
 */
final class CliLogging {
    enum Level {
        ERROR(java.util.logging.Level.SEVERE, ch.qos.logback.classic.Level.ERROR),
        WARN(java.util.logging.Level.WARNING, ch.qos.logback.classic.Level.WARN),
        INFO(java.util.logging.Level.INFO, ch.qos.logback.classic.Level.INFO),
        DEBUG(java.util.logging.Level.FINE, ch.qos.logback.classic.Level.DEBUG),
        TRACE(java.util.logging.Level.FINEST, ch.qos.logback.classic.Level.TRACE);

        private final java.util.logging.Level jul;
        private final ch.qos.logback.classic.Level logback;

        Level(java.util.logging.Level jul, ch.qos.logback.classic.Level logback) {
            this.jul = jul;
            this.logback = logback;
        }
    }

    private static volatile boolean logbackLevelled;

    private CliLogging() {}

    static void configure(Level level) {
        // Netty (the peer and NFS plugins, the REST client) logs through java.util.logging too, to the handler below:
        // its first logger would otherwise start logback, whose XML configuration took 45 ms before a peer copy's
        // first connect (docs/benchmarks.md). mover serve does not come here: its Netty logs through SLF4J to logback.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        Logger root = LogManager.getLogManager().getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler handler = new ConsoleHandler();
        handler.setLevel(level.jul);
        handler.setFormatter(new OneLine());
        root.addHandler(handler);
        root.setLevel(level.jul);
        // logback.xml already says warn: at the default level logback starts only if a library logs, which
        // keeps its configuration (about 0.1 s) out of short commands such as mover jobs list
        // (commands run in-process by tests share one logback: once changed, it is always set)
        if ((level != Level.WARN || logbackLevelled) && LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(level.logback);
            logbackLevelled = true;
        }
    }

    /**
     * As {@link #configure}, for commands that talk to a server: the HTTP libraries stay at info even
     * with {@code --debug}, because at debug they may print request headers, and so the bearer token.
     */
    static void configureClient(Level level) {
        configure(level);
        if (level.compareTo(Level.INFO) <= 0) {
            return;
        }
        for (String name : new String[] {"reactor.netty", "io.netty", "org.springframework", "jdk.internal.httpclient"}) {
            if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logback) {
                logback.setLevel(ch.qos.logback.classic.Level.INFO);
            }
            Logger.getLogger(name).setLevel(java.util.logging.Level.INFO);
        }
    }

    /** {@code mover: WARNING io.mover.core...: message}, with the stack trace only when one was logged. */
    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder("mover: ")
                    .append(record.getLevel().getName()).append(' ')
                    .append(record.getLoggerName()).append(": ")
                    .append(formatMessage(record)).append(System.lineSeparator());
            if (record.getThrown() != null) {
                java.io.StringWriter trace = new java.io.StringWriter();
                record.getThrown().printStackTrace(new java.io.PrintWriter(trace));
                line.append(trace);
            }
            return line.toString();
        }
    }
}

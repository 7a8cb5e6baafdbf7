package io.mover.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.mover.server.MoverServerApplication;
import io.mover.server.config.MoverProperties;
import io.mover.server.dataport.DataPort;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The Spring side of {@code mover serve}, apart from {@link ServeCommand}: the launcher's class path has Spring
 * Boot and the server's other libraries for {@code serve} only (they made every other command's first class and
 * resource look-ups open 139 jars instead of 78), and the JVM loads this class only when the server starts.
 */
final class ServeRun {
    private ServeRun() {}

    /** Starts the server with Spring Boot {@code arguments}, says where it listens, and waits until it is closed. */
    static int run(List<String> arguments, PrintWriter out) throws InterruptedException {
        ConfigurableApplicationContext context = start(arguments);
        MoverProperties properties = context.getBean(MoverProperties.class);
        out.printf("mover: serving http://%s:%s/api/v1 (data in %s); stop with Ctrl-C%n", properties.address(),
                context.getEnvironment().getProperty("local.server.port"), properties.dataDir());
        context.getBean(DataPort.class).view().ifPresent(port -> out.printf("mover: data port on %s%s%n", port.address(),
                port.tls() ? " (TLS 1.3; senders: --tls-fingerprint " + port.fingerprint() + ")" : ""));
        out.flush();
        CountDownLatch closed = new CountDownLatch(1);
        context.addApplicationListener((ContextClosedEvent event) -> closed.countDown());
        if (context.isActive()) {
            // Spring's shutdown hook closes the context on SIGTERM and Ctrl-C; running jobs are cancelled cleanly
            closed.await();
        }
        return ExitCode.SUCCESS.code();
    }

    private static ConfigurableApplicationContext start(List<String> arguments) {
        try {
            return MoverServerApplication.start(arguments.toArray(String[]::new));
        }
        catch (RuntimeException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "the server did not start: " + rootMessage(e), e);
        }
    }

    /** Spring wraps the cause (a port in use, the loopback guard) in layers; the innermost says what to do. */
    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        for (int depth = 0; depth < 20 && cause.getCause() != null; depth++) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }
}

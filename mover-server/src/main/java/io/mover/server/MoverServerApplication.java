package io.mover.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The mover server: REST jobs, Server-Sent Events, health and metrics on Reactor Netty.
 * {@code mover serve} calls {@link #start(String...)}; {@link #main(String[])} runs it alone.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MoverServerApplication {
    /**
     * Starts the server and returns once it listens. Arguments are Spring Boot's
     * ({@code --mover.port=9090}, {@code --mover.data-dir=/srv/mover}); close the context to stop it.
     */
    public static ConfigurableApplicationContext start(String... args) {
        SpringApplication application = new SpringApplication(MoverServerApplication.class);
        // logs name the server, not whichever main() (the CLI's) started it
        application.setMainApplicationClass(MoverServerApplication.class);
        return application.run(args);
    }

    public static void main(String[] args) {
        start(args);
    }
}

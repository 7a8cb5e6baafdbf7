package io.mover.server.dataport;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's data port, prefix {@code mover.data-port}: a TCP peer receiver (the one of {@code mover
 * receive}) writing into {@code root}. Off unless {@code enabled}.
 *
 * @param enabled whether the server listens for senders ({@code mover copy SRC tcp://HOST:PORT/path})
 * @param listen {@code HOST:PORT}; loopback by default, and off loopback a token is required
 * @param root the directory that receives; required when enabled
 * @param token the secret senders prove they know (or {@code MOVER_DATAPORT_TOKEN} in the environment); never logged
 * @param tokenFile a file whose first line is the token, instead of {@code token}
 * @param fsync whether each file is flushed to stable storage before it is acknowledged
 * @param tls TLS for the data port
 */
@ConfigurationProperties("mover.data-port")
public record DataPortProperties(boolean enabled, @DefaultValue("127.0.0.1:7700") String listen, Path root, String token, Path tokenFile,
        @DefaultValue("true") boolean fsync, Tls tls) {
    public DataPortProperties {
        listen = listen == null ? "127.0.0.1:7700" : listen;
        tls = tls == null ? new Tls(false, null, null, null, null) : tls;
    }

    /**
     * @param enabled run every connection inside TLS 1.3
     * @param cert a PEM certificate chain; without it a self-signed pair is generated and kept in {@code dir}
     * @param key the PEM (PKCS#8) key of {@code cert}
     * @param ca require senders to present a certificate this PEM CA issued
     * @param dir where the generated pair is kept (default {@code <data-dir>/tls})
     */
    public record Tls(boolean enabled, Path cert, Path key, Path ca, Path dir) {}

    @Override
    public String toString() {
        return "DataPortProperties[enabled=" + enabled + ", listen=" + listen + ", root=" + root + ", token=" + (token == null ? "none" : "[hidden]")
                + ", tokenFile=" + tokenFile + ", fsync=" + fsync + ", tls=" + tls + "]";
    }
}

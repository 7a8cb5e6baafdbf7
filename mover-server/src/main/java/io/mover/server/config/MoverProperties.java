package io.mover.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.mover.jobstore.SchedulerSettings;

/**
 * The server's settings, prefix {@code mover}.
 *
 * @param address the address to bind; {@code application.properties} hands it to {@code server.address}.
 *        Loopback by default: off loopback the server refuses to start without tokens.
 * @param port the HTTP port, handed to {@code server.port}
 * @param dataDir where the server keeps its state (job scratch space now, the job store later);
 *        {@code ~/.mover} by default, so a server and the CLI of one user share it and a working
 *        directory that changes between runs does not lose it
 * @param tokens bearer tokens; empty means no authentication (allowed on loopback only)
 * @param pluginDirs extra folders holding {@code plugins/<name>/} directories, searched with
 *        {@code $MOVER_PLUGINS} and {@code <mover home>/plugins}
 * @param maxRequestBody the largest request body accepted (a job is a few KiB of JSON); larger ones
 *        get 413. The one setting for both the declared length and what the JSON decoder buffers.
 * @param credentials named plugin configurations holding secrets ({@code mover.credentials.<name>.<key>}),
 *        referenced from a job by name; never logged or returned
 * @param jobStore where jobs are kept: by default an H2 database under {@code dataDir}; a PostgreSQL URL
 *        ({@code mover.job-store.url}, {@code .user}, {@code .password}) for movers sharing their jobs
 */
@ConfigurationProperties("mover")
public record MoverProperties(@DefaultValue("127.0.0.1") String address, @DefaultValue("8080") int port, Path dataDir,
        List<ApiToken> tokens, List<Path> pluginDirs, @DefaultValue("1MB") DataSize maxRequestBody,
        Map<String, Map<String, String>> credentials, JobStoreProperties jobStore) {
    public MoverProperties {
        dataDir = dataDir == null ? Path.of(System.getProperty("user.home"), ".mover") : dataDir;
        dataDir = dataDir.toAbsolutePath().normalize();
        tokens = tokens == null ? List.of() : List.copyOf(tokens);
        pluginDirs = pluginDirs == null ? List.of() : List.copyOf(pluginDirs);
        maxRequestBody = maxRequestBody == null ? DataSize.ofMegabytes(1) : maxRequestBody;
        if (maxRequestBody.toBytes() < 1024 || maxRequestBody.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("mover.max-request-body must be between 1KB and 2GB, got " + maxRequestBody);
        }
        credentials = credentials == null ? Map.of() : Map.copyOf(credentials);
        jobStore = jobStore == null ? new JobStoreProperties(null, null, null, null, null) : jobStore;
    }

    /**
     * The job store's database, when not the embedded one.
     *
     * @param url a {@code jdbc:postgresql:} URL; empty for H2 under the data directory
     * @param user its user
     * @param password its password (never logged)
     * @param heartbeatInterval how often this node renews the executions it runs; another node revives them after
     *        6 missed heartbeats (10 s by default: a crashed node's units continue about a minute later)
     * @param threads how many executions (job drivers and units, bench and schedule runs) this node runs at once (8 by
     *        default); more jobs than that wait QUEUED
     */
    public record JobStoreProperties(String url, String user, String password, @DefaultValue("10s") Duration heartbeatInterval,
            Integer threads) {
        public JobStoreProperties {
            heartbeatInterval = heartbeatInterval == null ? Duration.ofSeconds(10) : heartbeatInterval;
            threads = threads == null ? SchedulerSettings.DEFAULT_THREADS : threads;
            if (threads < 2 || threads > 256) {
                throw new IllegalArgumentException("mover.job-store.threads must be between 2 and 256, got " + threads);
            }
            if (heartbeatInterval.compareTo(Duration.ofMillis(500)) < 0 || heartbeatInterval.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("mover.job-store.heartbeat-interval must be between 500ms and 10m, got " + heartbeatInterval);
            }
        }

        @Override
        public String toString() {
            return "JobStore[url=" + (url == null ? "embedded" : url.replaceAll("[?;].*", "")) + ", user=" + user + "]";
        }
    }

    /** Scratch space of running jobs; each job's folder is removed when it ends. */
    public Path scratchDir() {
        return dataDir.resolve("scratch");
    }

    /** Credentials print by name only: their values are secrets. */
    @Override
    public String toString() {
        return "MoverProperties[address=" + address + ", port=" + port + ", dataDir=" + dataDir + ", tokens=" + tokens
                + ", pluginDirs=" + pluginDirs + ", maxRequestBody=" + maxRequestBody + ", credentials=" + credentials.keySet() + ", jobStore=" + jobStore + "]";
    }
}

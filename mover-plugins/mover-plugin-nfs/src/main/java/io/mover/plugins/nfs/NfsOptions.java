package io.mover.plugins.nfs;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.PluginConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The nfs plugin's options, read once from a validated {@link PluginConfig}.
 *
 * @param readSize bytes per READ; 0 takes the server's preferred size from FSINFO
 * @param writeSize bytes per WRITE; 0 takes the server's preferred size from FSINFO
 * @param readAhead bytes read ahead of a sequential reader
 * @param mountPort the MOUNT service's port; 0 asks the server's portmapper
 */
public record NfsOptions(int connections, int rpcsInFlight, int readSize, int writeSize, int uid, int gid, long readAhead,
        int mountPort, Duration timeout, Duration reconnectTimeout) {
    static final int MAX_TRANSFER = 4 << 20;

    static final ConfigKey CONNECTIONS = ConfigKey.optional("connections", ConfigType.INT, "4",
            "TCP connections per NFS server; throughput on NetApp volumes scales with connections.")
            .withValidator(value -> (Integer) value >= 1 && (Integer) value <= 64, "between 1 and 64");
    static final ConfigKey RPCS_IN_FLIGHT = ConfigKey.optional("rpcs-in-flight", ConfigType.INT, "16",
            "NFS calls outstanding per connection (pipelined READs and WRITEs).")
            .withValidator(value -> (Integer) value >= 1 && (Integer) value <= 256, "between 1 and 256");
    static final ConfigKey READ_SIZE = ConfigKey.optional("read-size", ConfigType.SIZE, "0",
            "Bytes per READ call; 0 uses the server's preferred size (FSINFO rtpref), at most 4MiB.")
            .withValidator(value -> (Long) value >= 0 && (Long) value <= MAX_TRANSFER, "0, or up to 4MiB");
    static final ConfigKey WRITE_SIZE = ConfigKey.optional("write-size", ConfigType.SIZE, "0",
            "Bytes per WRITE call; 0 uses the server's preferred size (FSINFO wtpref), at most 4MiB.")
            .withValidator(value -> (Long) value >= 0 && (Long) value <= MAX_TRANSFER, "0, or up to 4MiB");
    static final ConfigKey UID = ConfigKey.optional("uid", ConfigType.INT,
            "The uid sent with AUTH_SYS; defaults to the uid mover runs as.")
            .withValidator(value -> (Integer) value >= 0, "0 or more");
    static final ConfigKey GID = ConfigKey.optional("gid", ConfigType.INT,
            "The gid sent with AUTH_SYS; defaults to the gid mover runs as.")
            .withValidator(value -> (Integer) value >= 0, "0 or more");
    static final ConfigKey READ_AHEAD = ConfigKey.optional("read-ahead", ConfigType.SIZE, "8MiB",
            "Bytes read ahead of each sequential reader (cool tiers serve sequential reads much faster than random ones); 0 disables.")
            .withValidator(value -> (Long) value >= 0 && (Long) value <= 256L << 20, "0 to 256MiB");
    static final ConfigKey MOUNT_PORT = ConfigKey.optional("mount-port", ConfigType.INT, "0",
            "Port of the server's MOUNT service; 0 asks its portmapper (port 111).")
            .withValidator(value -> (Integer) value >= 0 && (Integer) value <= 65535, "0 to 65535");
    static final ConfigKey TIMEOUT = ConfigKey.optional("timeout", ConfigType.DURATION, "30s",
            "How long a call waits for its reply before it is sent again (three sends at most).");
    static final ConfigKey RECONNECT_TIMEOUT = ConfigKey.optional("reconnect-timeout", ConfigType.DURATION, "60s",
            "How long mover keeps reconnecting to a server that went away (a restart) before the files in flight fail.");

    static final ConfigKey FOLLOW_SYMLINKS = ConfigKey.optional("follow-symlinks", ConfigType.BOOLEAN, "false",
            "A source lists what symbolic links lead to (resolved inside the export) instead of the links; set by --follow-symlinks.");

    static final ConfigSpec SPEC = ConfigSpec.of(CONNECTIONS, RPCS_IN_FLIGHT, READ_SIZE, WRITE_SIZE, UID, GID, READ_AHEAD, MOUNT_PORT,
            TIMEOUT, RECONNECT_TIMEOUT);
    /** A source's options: the common ones and {@code follow-symlinks}. */
    static final ConfigSpec SOURCE_SPEC = ConfigSpec.of(CONNECTIONS, RPCS_IN_FLIGHT, READ_SIZE, WRITE_SIZE, UID, GID, READ_AHEAD, MOUNT_PORT,
            TIMEOUT, RECONNECT_TIMEOUT, FOLLOW_SYMLINKS);

    static NfsOptions from(PluginConfig config) {
        return new NfsOptions(
                config.integer(CONNECTIONS.name()).orElse(4),
                config.integer(RPCS_IN_FLIGHT.name()).orElse(16),
                config.size(READ_SIZE.name()).orElse(0L).intValue(),
                config.size(WRITE_SIZE.name()).orElse(0L).intValue(),
                config.integer(UID.name()).orElseGet(() -> processId("uid")),
                config.integer(GID.name()).orElseGet(() -> processId("gid")),
                config.size(READ_AHEAD.name()).orElse(8L << 20),
                config.integer(MOUNT_PORT.name()).orElse(0),
                config.duration(TIMEOUT.name()).orElse(Duration.ofSeconds(30)),
                config.duration(RECONNECT_TIMEOUT.name()).orElse(Duration.ofSeconds(60)));
    }

    /** The uid or gid of this process, as the owner of /proc/self shows it (Linux); 65534 (nobody) elsewhere. */
    private static int processId(String kind) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:" + kind);
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 65534;
        }
    }
}

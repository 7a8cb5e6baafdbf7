package io.mover.plugins.nfs;

import io.mover.spi.ConfigSpec;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plugin's options (defaults and mapping) and its location syntax. */
class NfsConfigTest {
    @Test
    void defaultsAndMapping() {
        NfsOptions defaults = NfsOptions.from(NfsOptions.SPEC.parse(Map.of()));
        assertThat(defaults.connections()).isEqualTo(4);
        assertThat(defaults.rpcsInFlight()).isEqualTo(16);
        assertThat(defaults.readSize()).isZero();
        assertThat(defaults.writeSize()).isZero();
        assertThat(defaults.readAhead()).isEqualTo(8 << 20);
        assertThat(defaults.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.uid()).isGreaterThanOrEqualTo(0);

        PluginConfig given = NfsOptions.SPEC.parse(Map.of("connections", "8", "rpcs-in-flight", "32", "read-size", "1MiB",
                "write-size", "512k", "uid", "1000", "gid", "100", "read-ahead", "0", "mount-port", "20048", "reconnect-timeout", "2m"));
        NfsOptions options = NfsOptions.from(given);
        assertThat(options).isEqualTo(new NfsOptions(8, 32, 1 << 20, 512 << 10, 1000, 100, 0, 20048, Duration.ofSeconds(30), Duration.ofMinutes(2)));
    }

    @Test
    void outOfRangeOptionsAreRefusedTogether() {
        assertThatThrownBy(() -> NfsOptions.SPEC.parse(Map.of("connections", "0", "read-size", "64MiB")))
                .isInstanceOfSatisfying(ConfigSpec.InvalidConfigException.class, e -> assertThat(e.problems()).hasSize(2));
    }

    @Test
    void oneServerOrSeveralWithPortsAndAnExportPath() {
        NfsLocation one = NfsLocation.parse(EndpointUri.parse("nfs://filer/vol/data/"));
        assertThat(one.servers()).singleElement().satisfies(server -> assertThat(server.getHostString()).isEqualTo("filer"));
        assertThat(one.ports()).containsExactly(0);
        assertThat(one.path()).isEqualTo("/vol/data");

        NfsLocation striped = NfsLocation.parse(EndpointUri.parse("nfs://10.0.0.1:2049,10.0.0.2,filer3:2050/vol1"));
        assertThat(striped.servers()).extracting(server -> server.getHostString()).containsExactly("10.0.0.1", "10.0.0.2", "filer3");
        assertThat(striped.ports()).containsExactly(2049, 0, 2050);
        assertThat(NfsLocation.parse(EndpointUri.parse("nfs://[fd00::3]:2050/vol1")).servers().getFirst().getHostString()).isEqualTo("fd00::3");
        assertThat(striped.describe()).isEqualTo("nfs://10.0.0.1:2049,10.0.0.2,filer3:2050/vol1");
    }

    @Test
    void badLocationsAreOneLineUserErrors() {
        for (String bad : new String[] {"nfs:///export", "nfs://filer/", "nfs://filer/export/../etc", "nfs://filer:port/export", "nfs://user@filer/export"}) {
            assertThatThrownBy(() -> NfsLocation.parse(EndpointUri.parse(bad))).as(bad)
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isIn(ErrorCode.INVALID_ARGUMENT, ErrorCode.INVALID_PATH))
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void serviceLoaderFindsThePlugin() {
        assertThat(ServiceLoader.load(io.mover.spi.MoverPlugin.class).stream().map(ServiceLoader.Provider::type))
                .contains(NfsPlugin.class);
    }
}

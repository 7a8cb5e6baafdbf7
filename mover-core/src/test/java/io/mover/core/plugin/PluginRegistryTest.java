package io.mover.core.plugin;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PluginRegistryTest {
    @Test
    void refusedPluginLeavesNothingBehindAndTheNextOneStillAdds() {
        PluginRegistry.Builder builder = new PluginRegistry.Builder();
        builder.add(plugin("first", List.of(), List.of(codec("fast", (byte) 70))), "a");

        // Its source comes before its clashing codec: the check must refuse before registering anything.
        assertThatThrownBy(() -> builder.add(plugin("second", List.of(source("second")), List.of(codec("quick", (byte) 70))), "b"))
                .isInstanceOf(MoverException.class)
                .hasMessage("codec quick of second 1 (b) uses wire id 70, already used by codec fast");
        builder.add(plugin("third", List.of(source("third")), List.of()), "c");

        PluginRegistry registry = builder.build();
        assertThat(registry.descriptors()).extracting(PluginDescriptor::name).containsExactly("first", "third");
        assertThat(registry.findSource("second")).isEmpty();
        assertThat(registry.findSource("third")).isPresent();
        assertThat(registry.codecs()).extracting(CodecFactory::name).containsExactly("fast");
    }

    @Test
    void aCodecClaimingTheWireIdOfRawOrZeroBlocksIsRefused() {
        PluginRegistry.Builder builder = new PluginRegistry.Builder();

        assertThatThrownBy(() -> builder.add(plugin("zeros", List.of(), List.of(codec("nothing", (byte) 0x7F))), "a"))
                .isInstanceOf(MoverException.class)
                .hasMessage("codec nothing of zeros 1 (a) uses wire id 127, which the block format keeps for blocks of zeros");
        assertThatThrownBy(() -> builder.add(plugin("raw", List.of(), List.of(codec("plain", (byte) 0))), "b"))
                .hasMessageContaining("keeps for raw blocks");
        assertThat(builder.build().codecs()).isEmpty();
    }

    @Test
    void pluginOfferingOneSchemeTwiceIsRefused() {
        PluginRegistry.Builder builder = new PluginRegistry.Builder();

        assertThatThrownBy(() -> builder.add(plugin("twice", List.of(source("x"), source("x")), List.of()), "a"))
                .hasMessage("source:x is offered by both twice 1 (a) and twice 1 (a); remove one of them");
        assertThat(builder.build().descriptors()).isEmpty();
    }

    private static MoverPlugin plugin(String name, List<SourceFactory> sources, List<CodecFactory> codecs) {
        return new MoverPlugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String version() {
                return "1";
            }

            @Override
            public List<SourceFactory> sourceFactories() {
                return sources;
            }

            @Override
            public List<CodecFactory> codecFactories() {
                return codecs;
            }
        };
    }

    private static SourceFactory source(String scheme) {
        return new SourceFactory() {
            @Override
            public String scheme() {
                return scheme;
            }

            @Override
            public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
                throw new UnsupportedOperationException("not used");
            }
        };
    }

    private static CodecFactory codec(String name, byte wireId) {
        return new CodecFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public byte wireId() {
                return wireId;
            }

            @Override
            public Codec create(int level) {
                return new Codec() {
                    @Override
                    public String name() {
                        return name;
                    }

                    @Override
                    public byte wireId() {
                        return wireId;
                    }

                    @Override
                    public int maxCompressedLength(int inputLength) {
                        return inputLength;
                    }

                    @Override
                    public int compress(ByteBuffer input, ByteBuffer output) {
                        throw new UnsupportedOperationException("not used");
                    }

                    @Override
                    public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
                        throw new UnsupportedOperationException("not used");
                    }
                };
            }
        };
    }
}

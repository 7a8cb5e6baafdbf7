package io.mover.core.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.codec.DeflateTestCodec;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --codec auto} to a link: its codecs are made while the sink connects (SPI {@code SinkFactory.linksToPeer}), not after. */
@Timeout(60)
class LinkPreparationTest {
    @TempDir
    Path scratch;

    /** A sink factory whose create() waits (a connection's round trips) and notes whether a codec was made meanwhile. */
    private static final class Linking implements MoverPlugin {
        final boolean links;
        /** How long create() waits for a codec: long where one is expected, short where none may come. */
        final long waitMillis;
        final CountDownLatch codecMade = new CountDownLatch(1);
        volatile Boolean madeWhileConnecting;
        volatile String codecThread;

        Linking(boolean links, long waitMillis) {
            this.links = links;
            this.waitMillis = waitMillis;
        }

        @Override
        public String name() {
            return "linking";
        }

        @Override
        public String version() {
            return "test";
        }

        @Override
        public List<CodecFactory> codecFactories() {
            // named lz4, so auto takes it as a candidate; encodes as the test deflate does
            return List.of(new CodecFactory() {
                @Override
                public String name() {
                    return "lz4";
                }

                @Override
                public byte wireId() {
                    return 1;
                }

                @Override
                public Codec create(int level) {
                    codecThread = Thread.currentThread().getName();
                    codecMade.countDown();
                    return DeflateTestCodec.FACTORY.create(1);
                }
            });
        }

        @Override
        public List<SinkFactory> sinkFactories() {
            return List.of(new SinkFactory() {
                @Override
                public String scheme() {
                    return "peer";
                }

                @Override
                public boolean linksToPeer(EndpointUri uri, PluginConfig config) {
                    return links;
                }

                @Override
                public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
                    try {
                        madeWhileConnecting = codecMade.await(waitMillis, TimeUnit.MILLISECONDS);
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    // the test needs only what happened during the connection
                    throw new MoverException(ErrorCode.CONNECTION_LOST, "no receiver in this test");
                }
            });
        }
    }

    private void prepare(Linking linking, String codec) {
        MemoryPlugin memory = new MemoryPlugin();
        memory.store("src");
        TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(memory, linking), "test"), Clock.systemUTC());
        JobSpec spec = JobSpec.copy("mem://src", "peer://receiver/in", TransferOptions.builder().codec(codec).build());
        assertThatThrownBy(() -> engine.prepare(spec, "job1", scratch)).isInstanceOf(MoverException.class).hasMessageContaining("no receiver");
    }

    @Test
    void autoMakesTheLinksCodecsWhileItConnects() {
        Linking linking = new Linking(true, 10_000);
        prepare(linking, "auto");
        assertThat(linking.madeWhileConnecting).isTrue();
        assertThat(linking.codecThread).isEqualTo("mover-codecs");
    }

    @Test
    void notForASinkThatIsNoLink() {
        Linking linking = new Linking(false, 500);
        prepare(linking, "auto");
        assertThat(linking.madeWhileConnecting).isFalse();
    }

    @Test
    void notForAnotherCodec() {
        Linking linking = new Linking(true, 500);
        prepare(linking, "none");
        assertThat(linking.madeWhileConnecting).isFalse();
    }
}

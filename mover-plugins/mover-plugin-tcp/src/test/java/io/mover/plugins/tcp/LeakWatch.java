package io.mover.plugins.tcp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fails a test when Netty's leak detector (PARANOID in tests, see the parent pom) reports a buffer that
 * was never released. Leaks are reported when buffers are garbage collected and a later allocation is
 * tracked, so after each test this collects garbage and allocates a few buffers.
 */
final class LeakWatch implements BeforeAllCallback, AfterEachCallback {
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    private static volatile boolean installed;

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!installed) {
            installed = true;
            InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
            Logger.getLogger(ResourceLeakDetector.class.getName()).addHandler(new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getMessage() != null && record.getMessage().contains("LEAK")) {
                        LEAKS.add(record.getMessage());
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            });
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            System.gc();
            Thread.sleep(20);
            for (int i = 0; i < 20; i++) {
                ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(64);
                pooled.release();
                ByteBuf unpooled = UnpooledByteBufAllocator.DEFAULT.heapBuffer(64);
                unpooled.release();
            }
        }
        List<String> found = List.copyOf(LEAKS);
        LEAKS.clear();
        assertThat(found).as("Netty buffers never released").isEmpty();
    }
}

package io.mover.plugins.codecs;

import java.util.Arrays;
import java.util.List;

import io.mover.spi.CodecFactory;
import io.mover.spi.MoverPlugin;

/**
 * The block codecs: lz4, snappy, lzo, zstd, gzip and deflate, on airlift aircompressor-v3. Each uses
 * the native library bundled in aircompressor where it loads (it needs
 * {@code --enable-native-access=ALL-UNNAMED}) and aircompressor's pure-Java code otherwise; lzo is
 * pure Java everywhere.
 */
public final class CodecsPlugin implements MoverPlugin {
    @Override
    public String name() {
        return "codecs";
    }

    @Override
    public String version() {
        String version = CodecsPlugin.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    /** Native availability is probed here, not in the constructor: ServiceLoader instantiation must do no I/O. */
    @Override
    public List<CodecFactory> codecFactories() {
        return Arrays.stream(CodecFamily.values()).<CodecFactory>map(CompressionCodecFactory::best).toList();
    }
}

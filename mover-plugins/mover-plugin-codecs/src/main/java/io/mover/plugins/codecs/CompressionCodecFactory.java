package io.mover.plugins.codecs;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Creates codecs of one {@link CodecFamily}, on aircompressor's native library or its pure-Java
 * fallback. Thread-safe (immutable).
 */
public final class CompressionCodecFactory implements CodecFactory {
    private final CodecFamily family;
    /** Null until first needed for {@link #best}: loading the native libraries cost a job without codecs 0.1 s of start-up. */
    private volatile Boolean useNative;

    CompressionCodecFactory(CodecFamily family, boolean useNative) {
        this.family = requireNonNull(family, "family is null");
        if (useNative && !family.nativeAvailable()) {
            throw new MoverException(ErrorCode.UNSUPPORTED, family.codecName() + ": no native library for this platform");
        }
        this.useNative = useNative;
    }

    private CompressionCodecFactory(CodecFamily family) {
        this.family = requireNonNull(family, "family is null");
    }

    /** The native implementation when its library loads here, the pure-Java one otherwise (decided at first use). */
    static CompressionCodecFactory best(CodecFamily family) {
        return new CompressionCodecFactory(family);
    }

    private boolean useNative() {
        Boolean chosen = useNative;
        if (chosen == null) {
            // racing first uses ask the same question and get the same answer
            chosen = family.nativeAvailable();
            useNative = chosen;
        }
        return chosen;
    }

    @Override
    public String name() {
        return family.codecName();
    }

    @Override
    public byte wireId() {
        return family.wireId();
    }

    @Override
    public String description() {
        if (family == CodecFamily.ZSTD && !useNative()) {
            return family.description() + " (pure Java: compresses at level 3 whatever the level)";
        }
        return family.description();
    }

    @Override
    public boolean hasLevels() {
        return family.levels().present();
    }

    @Override
    public int minLevel() {
        return family.levels().min();
    }

    @Override
    public int maxLevel() {
        return family.levels().max();
    }

    @Override
    public int defaultLevel() {
        return family.levels().defaultLevel();
    }

    @Override
    public String implementation() {
        return useNative() ? "native" : "java";
    }

    @Override
    public Codec create(int level) {
        if (hasLevels() && (level < minLevel() || level > maxLevel())) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT,
                    "codec " + name() + " level " + level + " is out of range: use " + minLevel() + " to " + maxLevel());
        }
        boolean nativeCode = useNative();
        if (family == CodecFamily.GZIP) {
            return new GzipCodec(family.newCompressor(level, nativeCode), family.newDecompressor(nativeCode));
        }
        return new BlockCompressionCodec(family, family.newCompressor(level, nativeCode), family.newDecompressor(nativeCode));
    }

    @Override
    public String toString() {
        return name() + " (" + implementation() + ")";
    }
}

package io.mover.core.codec;

import java.util.Collection;
import java.util.TreeSet;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Checks a {@link CodecChoice} against the installed codecs and creates codec instances for it.
 * {@code none} is built in: blocks are checksummed and sent raw.
 */
public final class CodecResolver {
    private final Collection<CodecFactory> factories;

    public CodecResolver(Collection<CodecFactory> factories) {
        this.factories = requireNonNull(factories, "factories is null");
    }

    /** Validates the choice now, so a bad {@code --codec} fails before the job starts. */
    public ResolvedCodec resolve(CodecChoice choice) {
        if (choice.isAuto()) {
            if (choice.level().isPresent()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "codec auto takes no level");
            }
            // without a link, auto is none; TransferEngine asks forLink once the sink is open
            return new ResolvedCodec(CodecChoice.NONE, null, 0);
        }
        if (choice.isNone()) {
            if (choice.level().isPresent()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "codec none takes no level");
            }
            return new ResolvedCodec(choice, null, 0);
        }
        CodecFactory factory = factories.stream().filter(f -> f.name().equals(choice.name())).findFirst()
                .orElseThrow(() -> new MoverException(ErrorCode.UNKNOWN_CODEC, "unknown codec '" + choice.name() + "'; installed codecs: "
                        + String.join(", ", installed()) + " (see 'mover plugins')"));
        int level = factory.defaultLevel();
        if (choice.level().isPresent()) {
            level = choice.level().getAsInt();
            if (!factory.hasLevels()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "codec " + factory.name() + " takes no level");
            }
            if (level < factory.minLevel() || level > factory.maxLevel()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "codec " + factory.name() + " level " + level + " is out of range: use "
                        + factory.minLevel() + " to " + factory.maxLevel());
            }
        }
        return new ResolvedCodec(choice, factory, level);
    }

    /** {@code auto} over a link: the installed codecs its far end decodes, chosen block by block. */
    public ResolvedCodec forLink(LinkSink link) {
        return new ResolvedCodec(CodecChoice.parse("auto"), AutoCodec.factory(factories, link, Runtime.getRuntime().availableProcessors()), 0);
    }

    /** Starts preparing {@code auto}'s codecs in the background, for a link about to connect: {@link #forLink} then finds them linked. */
    public void prepareForLink() {
        AutoCodec.prepare(factories);
    }

    private TreeSet<String> installed() {
        TreeSet<String> names = new TreeSet<>();
        names.add("none");
        names.add("auto");
        factories.forEach(f -> names.add(f.name()));
        return names;
    }

    /** A validated codec choice; {@link #newCodec()} gives one instance per thread, null for none. */
    public record ResolvedCodec(CodecChoice choice, CodecFactory factory, int level) {
        public Codec newCodec() {
            return factory == null ? null : factory.create(level);
        }

        public String describe() {
            return factory == null ? "none" : factory.name() + (factory.hasLevels() ? ":" + level : "") + " (" + factory.implementation() + ")";
        }
    }
}

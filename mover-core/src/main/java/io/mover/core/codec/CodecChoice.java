package io.mover.core.codec;

import java.util.Locale;
import java.util.OptionalInt;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * A codec as the user names it: {@code none}, {@code lz4}, {@code zstd:3}.
 *
 * @param name the codec family, lower case
 * @param level the level after the colon, if one was given
 */
public record CodecChoice(String name, OptionalInt level) {
    public static final CodecChoice NONE = new CodecChoice("none", OptionalInt.empty());

    public CodecChoice {
        requireNonNull(name, "name is null");
        requireNonNull(level, "level is null");
    }

    public static CodecChoice parse(String text) {
        requireNonNull(text, "text is null");
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        int colon = trimmed.indexOf(':');
        if (colon < 0) {
            if (trimmed.isEmpty()) {
                throw new MoverException(ErrorCode.UNKNOWN_CODEC, "an empty codec was given: use none, lz4, zstd:3 or another installed codec");
            }
            return new CodecChoice(trimmed, OptionalInt.empty());
        }
        String level = trimmed.substring(colon + 1);
        try {
            return new CodecChoice(trimmed.substring(0, colon), OptionalInt.of(Integer.parseInt(level)));
        }
        catch (NumberFormatException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid codec level '" + level + "' in '" + text + "': use a number, as in zstd:3");
        }
    }

    /** {@code auto}: none for a local copy, chosen block by block over a link. */
    public boolean isAuto() {
        return name.equals("auto");
    }

    public boolean isNone() {
        return name.equals("none");
    }

    @Override
    public String toString() {
        return level.isPresent() ? name + ":" + level.getAsInt() : name;
    }
}

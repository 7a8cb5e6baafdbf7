package io.mover.core.engine;

import java.util.Locale;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/** What {@code copy} does when the destination already has a file of the same name. */
public enum OverwritePolicy {
    /** Replace it. */
    TRUE,
    /** Keep it; the source file is skipped. */
    FALSE,
    /** Replace it only if the source's modification time is later. */
    IF_SOURCE_NEWER;

    public static OverwritePolicy parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> TRUE;
            case "false" -> FALSE;
            case "if-source-newer", "ifsourcenewer" -> IF_SOURCE_NEWER;
            default -> throw new MoverException(ErrorCode.INVALID_ARGUMENT,
                    "invalid overwrite policy '" + text + "': use true, false or if-source-newer");
        };
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

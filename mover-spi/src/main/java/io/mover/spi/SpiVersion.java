package io.mover.spi;

/**
 * The SPI's version. A plugin jar may declare the SPI it was built against in its manifest as
 * {@value #MANIFEST_ATTRIBUTE}{@code : 1.3.0}; the loader refuses a plugin whose major version differs
 * from {@link #MAJOR}, naming both.
 */
public final class SpiVersion {
    /** Incremented only for changes that break plugins built against an older SPI. */
    public static final int MAJOR = 1;
    /** Incremented when methods (always with defaults) are added. */
    public static final int MINOR = 9;
    public static final String MANIFEST_ATTRIBUTE = "Mover-Spi-Version";

    private SpiVersion() {}

    public static String current() {
        return MAJOR + "." + MINOR;
    }
}

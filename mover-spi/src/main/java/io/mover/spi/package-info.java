/**
 * The mover plugin SPI: the only mover types a plugin compiles against. JDK types only.
 *
 * <h2>Shape</h2>
 * A {@link io.mover.spi.MoverPlugin} (found by {@link java.util.ServiceLoader}) returns factories:
 * {@link io.mover.spi.SourceFactory}, {@link io.mover.spi.SinkFactory} and {@link io.mover.spi.CodecFactory}.
 * A factory declares its configuration ({@link io.mover.spi.ConfigSpec}), which the engine validates
 * before anything starts, and creates the object that does the work ({@link io.mover.spi.Source},
 * {@link io.mover.spi.Sink}, {@link io.mover.spi.Codec}). Optional abilities are small separate
 * interfaces a source or sink may also implement ({@link io.mover.spi.ServerSideCopy},
 * {@link io.mover.spi.RecursiveList}, {@link io.mover.spi.ContentHashes}, {@link io.mover.spi.PluginCounters},
 * {@link io.mover.spi.FilesInFlight}); the engine detects them once
 * per endpoint and falls back when they are absent or answer "can't".
 *
 * <h2>Errors</h2>
 * Every failure a plugin reports is a {@link io.mover.spi.MoverException} with an
 * {@link io.mover.spi.ErrorCode}; its {@link io.mover.spi.ErrorCategory} decides whether the engine retries,
 * fails one file or stops the job, and which REST status and CLI exit code the user sees.
 *
 * <h2>Compatibility</h2>
 * The SPI evolves by adding default methods; {@link io.mover.spi.SpiVersion#MAJOR} changes only when a
 * plugin built against an older SPI can no longer work, and the loader refuses such a plugin with a
 * message that names both versions.
 */
package io.mover.spi;

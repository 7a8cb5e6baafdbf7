package io.mover.spi;

/**
 * Creates {@link Source}s for one URI scheme. Stateless and thread-safe; one instance serves every job.
 */
public interface SourceFactory {
    /** The URI scheme, lower-case ({@code file}, {@code azfiles}, {@code nfs}). */
    String scheme();

    /** One line for {@code mover plugins}: what this endpoint is. */
    default String description() {
        return scheme();
    }

    /** The configuration keys {@link #create} accepts; validated by the engine before the call. */
    default ConfigSpec configSpec() {
        return ConfigSpec.EMPTY;
    }

    /**
     * Creates a source rooted at {@code uri}. Checks what can be checked cheaply (the root exists, the
     * credentials are accepted) so that a wrong location fails before any work starts.
     *
     * @throws MoverException {@link ErrorCode#NOT_FOUND} if the root does not exist, or a user error
     */
    Source create(EndpointUri uri, PluginConfig config, PluginContext context);
}

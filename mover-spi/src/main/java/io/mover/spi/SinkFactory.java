package io.mover.spi;

/**
 * Creates {@link Sink}s for one URI scheme. Stateless and thread-safe; one instance serves every job.
 */
public interface SinkFactory {
    String scheme();

    default String description() {
        return scheme();
    }

    default ConfigSpec configSpec() {
        return ConfigSpec.EMPTY;
    }

    /**
     * Creates a sink rooted at {@code uri}, creating the root directory if it is missing.
     *
     * @throws MoverException a user error if the root cannot be a directory (a file stands there)
     */
    Sink create(EndpointUri uri, PluginConfig config, PluginContext context);
}

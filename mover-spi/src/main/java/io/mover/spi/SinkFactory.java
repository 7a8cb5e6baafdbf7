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

    /**
     * Whether a sink of {@code uri} with {@code config} is one sequential stream that its receiver takes
     * once (the tcp plugin's plain tar formats: one connection to {@code nc -l}). Called before
     * {@link #create}, without I/O. The default: no.
     *
     * <p><b>Contract.</b> {@link #create} of such a sink opens the stream (connects), and the stream ends
     * with that sink. A caller therefore creates it once per job, when it is about to write the whole job
     * through it, and never only to check a job; a job that stops or fails midway cannot continue its
     * stream and is run again whole. Here the factory refuses, as {@link ErrorCode#INVALID_ARGUMENT},
     * settings that make no sense on one stream (several connections, say), so that a caller finds them
     * without opening it.
     *
     * @since 1.3
     */
    default boolean singleStream(EndpointUri uri, PluginConfig config) {
        return false;
    }

    /**
     * Whether {@link #create} of {@code uri} with {@code config} connects to a far end that decodes blocks itself (its
     * sink is a {@link LinkSink}, a mover receiver): the engine then prepares {@code --codec auto}'s codecs on a thread
     * of its own while {@code create} connects, instead of after it. Called before {@link #create}, without I/O; a
     * wrong answer costs time only (a sink that is no link had those codecs prepared for nothing). The default: no.
     *
     * @since 1.8
     */
    default boolean linksToPeer(EndpointUri uri, PluginConfig config) {
        return false;
    }
}

package io.mover.plugins.nfs;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one {@link Ganesha} for the whole test run (stopped when the run ends) and injects it as a
 * parameter. Tests are skipped, with the reason, only when ganesha is not installed or cannot run (not root).
 */
public final class GaneshaExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GaneshaExtension.class);

    private record Running(Ganesha ganesha) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            ganesha.stop();
            ganesha.deleteFiles();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        String reason = Ganesha.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        server(context);
    }

    private static volatile Ganesha current;

    /** The server started for this run; only after {@link #beforeAll}. */
    public static Ganesha running() {
        return current;
    }

    static Ganesha server(ExtensionContext context) {
        return current = context.getRoot().getStore(NAMESPACE).computeIfAbsent(Running.class, key -> {
            try {
                return new Running(Ganesha.start());
            }
            catch (Exception e) {
                throw new IllegalStateException("cannot start nfs-ganesha: " + e.getMessage(), e);
            }
        }, Running.class).ganesha();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Ganesha.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return server(context);
    }
}

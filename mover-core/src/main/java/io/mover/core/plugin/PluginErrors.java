package io.mover.core.plugin;

import java.util.ServiceConfigurationError;

import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;

/** Turns what a failing plugin threw into the one line a {@link PluginLoadFailure} carries. */
final class PluginErrors {
    // Causes are chained a few levels deep at most (ServiceLoader wraps the constructor's exception).
    private static final int MAX_CAUSES = 5;

    private PluginErrors() {}

    static String describe(Throwable error) {
        StringBuilder reason = new StringBuilder();
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++) {
            String message = current.getMessage() == null ? "" : current.getMessage();
            // NoClassDefFoundError "a/b/C" caused by ClassNotFoundException "a.b.C" says one thing once.
            if (reason.isEmpty() || message.isEmpty() || !reason.toString().replace('/', '.').contains(message.replace('/', '.'))) {
                reason.append(reason.isEmpty() ? "" : ": ").append(describeOne(current));
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        if (hasLinkageError(error)) {
            reason.append(" (a class the plugin needs is in none of its jars; a plugin sees only its own jars, the JDK and mover's "
                    + String.join(" and ", PluginClassLoader.SHARED_PACKAGES.stream().map(p -> p + "*").toList()) + ")");
        }
        return reason.toString().replaceAll("\\s*\\R\\s*", " ");
    }

    private static String describeOne(Throwable error) {
        String message = error.getMessage() == null ? "" : error.getMessage();
        if (error instanceof ServiceConfigurationError) {
            // "io.mover.spi.MoverPlugin: Provider x could not be instantiated": the prefix says nothing new.
            return message.replaceFirst("^" + MoverPlugin.class.getName().replace(".", "\\.") + ":\\s*", "");
        }
        if (error instanceof MoverException) {
            return message;
        }
        return message.isEmpty() ? error.getClass().getSimpleName() : error.getClass().getSimpleName() + ": " + message;
    }

    private static boolean hasLinkageError(Throwable error) {
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++) {
            // ServiceLoader reports a provider class missing from the jars as "Provider x not found", with no cause.
            boolean providerMissing = current instanceof ServiceConfigurationError && String.valueOf(current.getMessage()).endsWith(" not found");
            if (providerMissing || current instanceof NoClassDefFoundError || current instanceof ClassNotFoundException) {
                return true;
            }
            current = current.getCause();
        }
        return false;
    }
}

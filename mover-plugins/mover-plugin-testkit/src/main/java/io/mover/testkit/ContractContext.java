package io.mover.testkit;

import java.nio.file.Path;

import io.mover.spi.PluginContext;

import static java.util.Objects.requireNonNull;

/**
 * What the contract test gives a plugin to create the sink or source under test.
 *
 * @param directory a fresh, empty local directory for this test case; a plugin over a local tree roots
 *        itself here, one over a remote store may ignore it and use a fresh prefix of its own
 * @param pluginContext the context a factory would receive from the engine, with its job key
 */
public record ContractContext(Path directory, PluginContext pluginContext) {
    public ContractContext {
        requireNonNull(directory, "directory is null");
        requireNonNull(pluginContext, "pluginContext is null");
    }

    /** The same store, seen by another job (or a later run of another job). */
    public ContractContext withJobKey(String jobKey) {
        return new ContractContext(directory, new PluginContext(jobKey, pluginContext.scratchDirectory(),
                pluginContext.clock(), pluginContext.logger()));
    }
}

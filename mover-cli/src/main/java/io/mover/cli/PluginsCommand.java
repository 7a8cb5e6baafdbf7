package io.mover.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.mover.core.plugin.LoadedPlugins;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.plugin.PluginLoadFailure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mover plugins}: what is installed, from where, and what it offers. */
@Command(name = "plugins", mixinStandardHelpOptions = true,
        description = "Lists the installed plugins: name, version, location, and the schemes and codecs they offer.")
final class PluginsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Override
    public Integer call() {
        CliLogging.configure(common.effectiveLogLevel());
        LoadedPlugins loaded = CliPlugins.loadAll(common.pluginDirectories);
        List<PluginDescriptor> plugins = loaded.registry().descriptors();
        PrintWriter out = spec.commandLine().getOut();
        if (common.json()) {
            out.println(JsonOutput.MAPPER.writeValueAsString(java.util.Map.of("plugins", plugins, "failures", loaded.failures())));
        }
        else {
            printTable(out, plugins);
            for (PluginLoadFailure failure : loaded.failures()) {
                out.println("not loaded: " + failure.location() + ": " + failure.reason());
            }
        }
        out.flush();
        return ExitCode.SUCCESS.code();
    }

    private static void printTable(PrintWriter out, List<PluginDescriptor> plugins) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"NAME", "VERSION", "LOCATION", "READS", "WRITES", "CODECS"});
        for (PluginDescriptor plugin : plugins) {
            rows.add(new String[] {plugin.name(), plugin.version(), plugin.location(), list(plugin.sources()), list(plugin.sinks()),
                    list(plugin.codecs())});
        }
        // the last cell is never blank ("-" for none), so no line ends in blanks
        TextTable.print(out, rows);
        if (plugins.isEmpty()) {
            out.println("(no plugins installed)");
        }
    }

    private static String list(List<String> values) {
        return values.isEmpty() ? "-" : String.join(",", values);
    }
}

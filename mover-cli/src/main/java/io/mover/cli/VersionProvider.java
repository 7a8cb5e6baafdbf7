package io.mover.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import picocli.CommandLine.IVersionProvider;

/** The version from mover-version.properties, which Maven fills in at build time (so it also works from target/classes). */
final class VersionProvider implements IVersionProvider {
    static final String RESOURCE = "/io/mover/cli/mover-version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {"mover " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "unknown vendor") + ")"};
    }

    static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        }
        catch (IOException e) {
            return "unknown";
        }
    }
}

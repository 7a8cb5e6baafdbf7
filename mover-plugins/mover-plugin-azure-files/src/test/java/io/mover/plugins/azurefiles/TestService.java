package io.mover.plugins.azurefiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;

/** One File service double per test JVM, with two accounts, and helpers to open the plugin against it. */
final class TestService {
    static final String ACCOUNT = "devaccount";
    static final String OTHER = "otheraccount";
    static final String KEY = java.util.Base64.getEncoder().encodeToString("test-key-of-devaccount-0123456789".getBytes());
    static final String OTHER_KEY = java.util.Base64.getEncoder().encodeToString("test-key-of-otheraccount-987654321".getBytes());
    private static FileServiceDouble service;

    private TestService() {}

    static synchronized FileServiceDouble get() {
        if (service == null) {
            try {
                Path scratch = Files.createTempDirectory("azure-files-double");
                service = FileServiceDouble.start(scratch).account(ACCOUNT, KEY).account(OTHER, OTHER_KEY);
                FileServiceDouble started = service;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    started.close();   // removes the content it kept under scratch
                    try {
                        Files.deleteIfExists(scratch);
                    }
                    catch (IOException e) {
                        // best effort at exit
                    }
                }));
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return service;
    }

    static PluginConfig config(String account, Map<String, String> extra) {
        Map<String, String> raw = new HashMap<>(extra);
        raw.putIfAbsent("endpoint", get().endpoint(account));
        if (!raw.containsKey("sas")) {
            raw.putIfAbsent("account-key", account.equals(ACCOUNT) ? KEY : OTHER_KEY);
        }
        return AzureFilesFactory.SPEC.parse(raw);
    }

    static PluginContext context(Path scratch, String jobKey) {
        return new PluginContext(jobKey, scratch, Clock.systemUTC(), System.getLogger("test"));
    }

    static AzureFilesSink sink(String account, String location, Map<String, String> extra, PluginContext context) {
        return (AzureFilesSink) new AzureFilesFactory.Sinks("azfiles", name -> null).create(EndpointUri.parse("azfiles://" + account + "/" + location), config(account, extra), context);
    }

    static AzureFilesSource source(String account, String location, Map<String, String> extra, PluginContext context) {
        return (AzureFilesSource) new AzureFilesFactory.Sources("azfiles", name -> null).create(EndpointUri.parse("azfiles://" + account + "/" + location), config(account, extra), context);
    }
}

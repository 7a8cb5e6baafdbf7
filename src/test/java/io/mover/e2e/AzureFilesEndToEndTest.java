package io.mover.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mover copy} local → Azure Files → local as an operator runs it (a separate JVM, the key in the
 * environment), through the real Azure SDK against the File service double, with dropped connections injected.
 */
@Timeout(180)
class AzureFilesEndToEndTest {
    private static final String KEY = Base64.getEncoder().encodeToString("e2e-account-key-0123456789abcdef".getBytes(StandardCharsets.UTF_8));
    private static final String OTHER_KEY = Base64.getEncoder().encodeToString("e2e-other-account-key-9876543210".getBytes(StandardCharsets.UTF_8));
    private static final String SDDL = "O:BAG:SYD:(A;;FA;;;BA)(A;OICI;0x1200a9;;;AU)";
    private static final java.time.Instant MTIME = java.time.Instant.parse("2025-03-04T05:06:07.1234567Z");
    @TempDir
    Path dir;
    private FileServiceDouble service;

    @BeforeEach
    void startService() throws IOException {
        service = FileServiceDouble.start(dir).account("e2eaccount", KEY).share("e2eaccount", "data")
                .account("e2eother", OTHER_KEY).share("e2eother", "backup");
    }

    @AfterEach
    void stopService() {
        service.close();
    }

    private Process mover(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "io.mover.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        builder.environment().put("AZURE_STORAGE_KEY", KEY);
        return builder.start();
    }

    private String output() throws IOException {
        return Files.readString(dir.resolve("out.txt")) + Files.readString(dir.resolve("err.txt"));
    }

    @Test
    void copiesATreeToAShareAndBackThroughDroppedConnections() throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        String endpoint = "endpoint=" + service.endpoint("e2eaccount");
        service.faults().dropEvery = 17;

        Process up = mover("copy", source.toString(), "azfiles://e2eaccount/data/tree", "--dest-config", endpoint, "--retries", "5");
        assertThat(up.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(up.exitValue()).as(output()).isZero();
        assertThat(service.count("dropped")).isPositive();
        assertThat(service.names("e2eaccount", "data", "tree")).noneMatch(name -> name.contains(".partial."));

        Process down = mover("copy", "azfiles://e2eaccount/data/tree", dir.resolve("back").toString(), "--source-config", endpoint, "--retries", "5");
        assertThat(down.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(down.exitValue()).as(output()).isZero();
        assertThat(Trees.fingerprint(dir.resolve("back"))).isEqualTo(Trees.fingerprint(source));
        assertThat(output()).doesNotContain(KEY);
    }

    @Test
    void aServerJobKeepsThePluginCountersInItsSummary() throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        int port = ServerProcess.freePort();
        URI base = URI.create("http://127.0.0.1:" + port);
        ServerProcess server = ServerProcess.start(dir, "server", Map.of("AZURE_STORAGE_KEY", KEY), "--port", Integer.toString(port),
                "--data-dir", dir.resolve("data").toString());
        try {
            server.awaitUp(base);
            service.resetCounts();
            HttpResponse<String> created = ServerProcess.post(base.resolve("/api/v1/jobs"), Map.of("kind", "copy", "source", source.toString(),
                    "destination", "azfiles://e2eaccount/data/served", "destinationConfig", Map.of("endpoint", service.endpoint("e2eaccount"))));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            URI job = base.resolve(created.headers().firstValue("Location").orElseThrow());

            var view = ServerProcess.awaitEnd(job, 1200);
            assertThat(view.get("state").asString()).as(view.toString()).isEqualTo("SUCCEEDED");
            var counters = view.get("result").get("pluginCounters");
            assertThat(counters).as(view.toString()).isNotNull();
            // the submission's check, the driver's, the units' Create/Put Range/Rename, the folder times: every request
            // the double served (nothing else called it); counters that stayed zero are left out
            assertThat(counters.get("destination.azure-files.requests").asLong()).isEqualTo(service.counts().get("all"));
            assertThat(counters.has("destination.azure-files.throttled-503")).isFalse();

            Process show = mover("jobs", "show", view.get("id").asString(), "--server", base.toString());
            assertThat(show.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(output()).as("mover jobs show").contains("Plugins:     destination.azure-files.requests " + service.counts().get("all"));
        }
        finally {
            server.process().destroyForcibly();
        }
    }

    /** An account SAS of e2eother, as a user would paste it into the destination URL. */
    private static String otherAccountSas() {
        var values = new com.azure.storage.common.sas.AccountSasSignatureValues(java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plusHours(1),
                com.azure.storage.common.sas.AccountSasPermission.parse("rwdlc"), new com.azure.storage.common.sas.AccountSasService().setFileAccess(true),
                com.azure.storage.common.sas.AccountSasResourceType.parse("sco"));
        return new com.azure.storage.file.share.ShareServiceClientBuilder().endpoint("https://e2eother.file.core.windows.net")
                .credential(new com.azure.storage.common.StorageSharedKeyCredential("e2eother", OTHER_KEY)).buildClient().generateAccountSas(values);
    }

    private void seedSourceShare() throws IOException {
        service.put("e2eaccount", "data", "tree/top.txt", "top".getBytes(StandardCharsets.UTF_8), MTIME);
        service.put("e2eaccount", "data", "tree/sub/deep/one.bin", new byte[300_000], MTIME);
        service.put("e2eaccount", "data", "tree/sub/two 100%.txt", "two".getBytes(StandardCharsets.UTF_8), MTIME);
        service.mkdir("e2eaccount", "data", "tree/empty", MTIME);
        service.smb("e2eaccount", "data", "tree/sub", "Hidden", MTIME.minusSeconds(3600), SDDL);
    }

    private tools.jackson.databind.JsonNode summary() throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("out.txt"));
        return tools.jackson.databind.json.JsonMapper.builder().build().readTree(lines.getLast());
    }

    @Test
    void copiesShareToShareAcrossAccountsByServiceSideCopyAndSyncsChanges() throws Exception {
        seedSourceShare();
        String sas = otherAccountSas();
        String destination = "https://e2eother.file.core.windows.net/backup/copy?" + sas;
        String[] endpoints = {"--source-config", "endpoint=" + service.endpoint("e2eaccount"), "--dest-config", "endpoint=" + service.endpoint("e2eother")};
        service.resetCounts();

        List<String> copy = new ArrayList<>(List.of("copy", "azfiles://e2eaccount/data/tree", destination, "--output", "json",
                "--dest-config", "preserve-smb-info=true", "--dest-config", "preserve-permissions=true"));
        copy.addAll(List.of(endpoints));
        Process run = mover(copy.toArray(String[]::new));
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(run.exitValue()).as(output()).isZero();
        assertThat(service.count("PUT copy")).as("Copy File, the service moves the bytes").isEqualTo(3);
        assertThat(service.count("PUT comp=range")).as("no byte passed through mover").isZero();
        assertThat(service.read("e2eother", "backup", "copy/sub/deep/one.bin")).isEqualTo(new byte[300_000]);
        assertThat(service.read("e2eother", "backup", "copy/sub/two 100%.txt")).isEqualTo("two".getBytes(StandardCharsets.UTF_8));
        assertThat(service.names("e2eother", "backup", "copy")).contains("empty").noneMatch(name -> name.contains(".partial."));
        assertThat(service.smb("e2eother", "backup", "copy/sub")).as("a directory's SMB info and permission, share to share")
                .containsEntry("permission", SDDL).containsEntry("attributes", "Hidden | Directory")
                .containsEntry("creationTime", MTIME.minusSeconds(3600).toString());
        var json = summary();
        assertThat(json.get("filesTransferred").asLong()).isEqualTo(3);
        assertThat(json.get("pluginCounters").get("destination.azure-files.requests").asLong()).isPositive();
        assertThat(json.get("pluginCounters").get("source.azure-files.requests").asLong()).isPositive();
        assertThat(output()).doesNotContain(KEY).doesNotContain(OTHER_KEY).doesNotContain(sas.substring(sas.indexOf("sig=")));

        service.put("e2eaccount", "data", "tree/top.txt", "top, changed".getBytes(StandardCharsets.UTF_8), MTIME.plusSeconds(60));
        service.put("e2eaccount", "data", "tree/new.txt", "new".getBytes(StandardCharsets.UTF_8), MTIME);
        service.deleteFile("e2eaccount", "data", "tree/sub/deep/one.bin");
        service.resetCounts();
        List<String> sync = new ArrayList<>(List.of("sync", "azfiles://e2eaccount/data/tree", destination, "--delete-destination", "true", "--output", "json"));
        sync.addAll(List.of(endpoints));
        run = mover(sync.toArray(String[]::new));
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(run.exitValue()).as(output()).isZero();
        assertThat(service.count("PUT copy")).as("the changed and the new file, by the service").isEqualTo(2);
        assertThat(service.count("PUT comp=range")).isZero();
        assertThat(service.read("e2eother", "backup", "copy/top.txt")).isEqualTo("top, changed".getBytes(StandardCharsets.UTF_8));
        assertThat(service.read("e2eother", "backup", "copy/new.txt")).isEqualTo("new".getBytes(StandardCharsets.UTF_8));
        assertThat(service.names("e2eother", "backup", "copy")).doesNotContain("sub/deep/one.bin").contains("sub/two 100%.txt");
        assertThat(summary().get("sync").get("deletions").asLong()).isEqualTo(1);

        // nothing changed since: one listing per directory per side (the root, sub, sub/deep, empty; each end's check is
        // its root's first page) and the engine's stat of each root; no Get Permission, no other fixed request
        service.resetCounts();
        run = mover(sync.toArray(String[]::new));
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(run.exitValue()).as(output()).isZero();
        assertThat(service.counts()).as(output()).containsOnlyKeys("all", "GET restype=directory comp=list", "GET restype=directory")
                .containsEntry("GET restype=directory comp=list", 8L).containsEntry("GET restype=directory", 2L);
    }
}

package io.mover.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.mover.core.plugin.LoadedPlugins;
import io.mover.core.plugin.PluginDirectories;
import io.mover.core.plugin.PluginLoadFailure;
import io.mover.core.plugin.PluginLoader;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.JobService;
import io.mover.core.service.NodeView;
import io.mover.jobstore.JobDatabase;
import io.mover.jobstore.JobStores;
import io.mover.jobstore.SchedulerSettings;
import io.mover.jobstore.service.DurableJobService;
import io.mover.jobstore.service.SyncSchedules;
import io.mover.server.credential.CredentialStore;
import io.mover.server.job.web.JobEventStream;
import io.mover.server.metrics.MeteredJobService;
import io.mover.spi.Secret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The one place that decides which {@link JobService} the server runs. Controllers see only the
 * interface, so the durable job store replaces the embedded service here and nowhere else.
 */
@Configuration(proxyBeanMethods = false)
public class JobServiceConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(JobServiceConfiguration.class);

    /**
     * The durable job service: jobs are kept in the job store (H2 under the data directory, or the
     * PostgreSQL of {@code mover.job-store.url}) and continue after a restart. It owns the job store's lifecycle:
     * closing it stops at a file boundary and closes the store (releasing the data directory's lock).
     */
    @Bean(destroyMethod = "close")
    public DurableJobService durableJobService(MoverProperties properties, PluginRegistry plugins, CredentialStore credentials) throws IOException {
        Files.createDirectories(properties.scratchDir());
        MoverProperties.JobStoreProperties store = properties.jobStore();
        JobDatabase database = store.url() == null || store.url().isBlank()
                ? JobStores.open(properties.dataDir(), store.threads())
                : JobStores.open(store.url(), store.user() == null ? "" : store.user(), Secret.of(store.password() == null ? "" : store.password()), store.threads());
        try {
            return new DurableJobService(database, plugins, properties.scratchDir(), credentials::find,
                    SchedulerSettings.defaults(NodeView.localId()).withHeartbeatInterval(store.heartbeatInterval()).withThreads(store.threads()), Duration.ofSeconds(2));
        }
        catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * The {@link JobService} controllers see: the durable service, metered. Scheduled syncs are submitted through it
     * too, so they are counted like submitted ones. No destroy method: the durable service's bean owns the close.
     */
    @Bean(destroyMethod = "")
    @Primary
    public JobService jobService(DurableJobService durable, MeterRegistry meters) {
        MeteredJobService metered = new MeteredJobService(durable, meters);
        durable.schedules().submitThrough(metered);
        return metered;
    }

    /** Work unit attempts of this node, from the durable service's counters. */
    @Bean
    public MeterBinder unitMetrics(DurableJobService durable) {
        return registry -> {
            FunctionCounter.builder("mover.units.claimed", durable, DurableJobService::unitsClaimed)
                    .description("Work unit attempts this node began").register(registry);
            FunctionCounter.builder("mover.units.revived", durable, DurableJobService::unitsRevived)
                    .description("Work unit attempts that continued a unit an earlier attempt had begun (a dead or stopped node's)").register(registry);
        };
    }

    /**
     * The class path's plugins, then every {@code plugins/<name>/} directory, each in its own class
     * loader. A plugin that fails to load is logged and the server starts with the others, as the CLI does.
     * Loaded once: jobs of every kind (benches too) and the data port's receiver run on the same plugins.
     */
    @Bean
    public PluginRegistry plugins(MoverProperties properties) {
        Optional<Path> home = Optional.ofNullable(System.getProperty("mover.home")).map(Path::of);
        LoadedPlugins loaded = PluginLoader.load(PluginDirectories.resolve(home, properties.pluginDirs()));
        for (PluginLoadFailure failure : loaded.failures()) {
            LOG.warn("plugin not loaded from {}: {}", failure.location(), failure.reason());
        }
        return loaded.registry();
    }

    /** The recurring syncs of the durable job service ({@code /api/v1/schedules}). */
    @Bean
    public SyncSchedules syncSchedules(DurableJobService durable) {
        return durable.schedules();
    }

    /** Progress every 2 s (the engine's interval), a keep-alive comment every 15 s. */
    @Bean
    public JobEventStream jobEventStream(JobService jobService) {
        return new JobEventStream(jobService, Duration.ofSeconds(2), Duration.ofSeconds(15));
    }
}

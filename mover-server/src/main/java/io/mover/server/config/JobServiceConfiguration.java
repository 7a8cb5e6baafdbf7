package io.mover.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.mover.core.plugin.PluginRegistry;
import io.mover.core.service.EmbeddedJobService;
import io.mover.core.service.JobService;
import io.mover.server.job.web.JobEventStream;
import io.mover.server.metrics.MeteredJobService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one place that decides which {@link JobService} the server runs. Controllers see only the
 * interface, so the durable job store replaces the embedded service here and nowhere else.
 */
@Configuration(proxyBeanMethods = false)
public class JobServiceConfiguration {
    @Bean(destroyMethod = "close")
    public JobService jobService(MoverProperties properties, MeterRegistry meters) throws IOException {
        Files.createDirectories(properties.scratchDir());
        JobService embedded = EmbeddedJobService.create(PluginRegistry.fromClassPath(), properties.scratchDir());
        return new MeteredJobService(embedded, meters);
    }

    /** Progress every 2 s (the engine's interval), a keep-alive comment every 15 s. */
    @Bean
    public JobEventStream jobEventStream(JobService jobService) {
        return new JobEventStream(jobService, Duration.ofSeconds(2), Duration.ofSeconds(15));
    }
}

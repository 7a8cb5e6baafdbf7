package io.mover.server.bench;

import java.time.Clock;

import io.mover.server.config.JobServiceConfiguration;
import io.mover.server.config.MoverProperties;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The bench jobs of {@code /api/v1/benches}, on the server's plugins, with scratch space beside the jobs'. */
@Configuration(proxyBeanMethods = false)
public class BenchConfiguration {
    @Bean(destroyMethod = "close")
    public BenchJobs benchJobs(MoverProperties properties) {
        return new BenchJobs(JobServiceConfiguration.plugins(properties), properties.scratchDir().resolve("bench"), Clock.systemUTC());
    }
}

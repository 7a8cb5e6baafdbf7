package io.mover.server.dataport;

import java.io.IOException;

import io.mover.core.plugin.PluginRegistry;
import io.mover.server.config.MoverProperties;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The data port (off unless {@code mover.data-port.enabled=true}), on the server's plugins, scratch space beside the jobs'. */
@Configuration(proxyBeanMethods = false)
public class DataPortConfiguration {
    @Bean(destroyMethod = "close")
    public DataPort dataPort(DataPortProperties dataPort, MoverProperties properties, PluginRegistry plugins) throws IOException {
        if (!dataPort.enabled()) {
            return DataPort.off();
        }
        return DataPort.start(dataPort, plugins, properties.scratchDir().resolve("data-port"),
                properties.dataDir().resolve("tls"));
    }
}

package io.mover.server.security;

import io.mover.server.config.MoverProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/** The token filter, and the check that keeps an unauthenticated server on loopback. */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {
    @Bean
    public BearerTokenFilter bearerTokenFilter(MoverProperties properties, Environment environment, JsonMapper json) {
        // server.address is what Netty binds (mover.address feeds it, but it may be set directly)
        BindAddressGuard.check(environment.getProperty("server.address"), properties.tokens());
        return new BearerTokenFilter(properties.tokens(), json);
    }
}

package io.mover.server.config;

import io.mover.server.credential.CredentialStore;
import io.mover.server.problem.RequestBodyLimit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import tools.jackson.databind.json.JsonMapper;

/** Request bounds and the credential store, each from {@link MoverProperties}. */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration implements WebFluxConfigurer {
    private final MoverProperties properties;

    public WebConfiguration(MoverProperties properties) {
        this.properties = properties;
    }

    @Bean
    public RequestBodyLimit requestBodyLimit(JsonMapper json) {
        return new RequestBodyLimit(properties.maxRequestBody().toBytes(), json);
    }

    /** What a decoder may buffer is the same limit as the body itself, so there is one number to set. */
    @Override
    public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
        configurer.defaultCodecs().maxInMemorySize((int) properties.maxRequestBody().toBytes());
    }

    @Bean
    public CredentialStore credentialStore() {
        return new CredentialStore(properties.credentials());
    }
}

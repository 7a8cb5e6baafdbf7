package io.mover.server.security;

import java.util.List;
import java.util.Optional;

import io.mover.server.config.ApiToken;
import io.mover.server.config.TokenScope;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class BearerTokenFilterTest {
    private final BearerTokenFilter filter = new BearerTokenFilter(List.of(
            new ApiToken("reader-0123456789abcdef", TokenScope.READ),
            new ApiToken("operator-0123456789abcdef", TokenScope.OPERATE)), JsonMapper.builder().build());

    @Test
    void matchesTokensExactly() {
        assertThat(filter.scopeOf("reader-0123456789abcdef")).contains(TokenScope.READ);
        assertThat(filter.scopeOf("operator-0123456789abcdef")).contains(TokenScope.OPERATE);
        assertThat(filter.scopeOf("reader-0123456789abcde")).isEqualTo(Optional.empty());
        assertThat(filter.scopeOf("")).isEmpty();
    }

    @Test
    void readMayGetAndOperateMayPost() {
        assertThat(BearerTokenFilter.needs(HttpMethod.GET, "/api/v1/jobs")).isEqualTo(TokenScope.READ);
        assertThat(BearerTokenFilter.needs(HttpMethod.POST, "/api/v1/jobs")).isEqualTo(TokenScope.OPERATE);
        assertThat(BearerTokenFilter.needs(HttpMethod.PATCH, "/api/v1/jobs/x")).isEqualTo(TokenScope.OPERATE);
        assertThat(BearerTokenFilter.needs(HttpMethod.DELETE, "/api/v1/jobs/x")).isEqualTo(TokenScope.OPERATE);
        assertThat(TokenScope.READ.permits(TokenScope.OPERATE)).isFalse();
        assertThat(TokenScope.OPERATE.permits(TokenScope.READ)).isTrue();
        assertThat(BearerTokenFilter.isOpen("/actuator/health")).isTrue();
        assertThat(BearerTokenFilter.isOpen("/actuator/prometheus")).isFalse();
    }

    @Test
    void adminIsAboveOperateAndGuardsTheActuator() {
        assertThat(TokenScope.ADMIN.permits(TokenScope.OPERATE)).isTrue();
        assertThat(TokenScope.OPERATE.permits(TokenScope.ADMIN)).isFalse();
        assertThat(BearerTokenFilter.needs(HttpMethod.GET, "/actuator/prometheus")).isEqualTo(TokenScope.READ);
        assertThat(BearerTokenFilter.needs(HttpMethod.GET, "/actuator/metrics")).isEqualTo(TokenScope.ADMIN);
        assertThat(BearerTokenFilter.needs(HttpMethod.GET, "/actuator")).isEqualTo(TokenScope.ADMIN);
        assertThat(BearerTokenFilter.needs(HttpMethod.GET, "/actuatorx")).isEqualTo(TokenScope.READ);
        BearerTokenFilter both = new BearerTokenFilter(List.of(new ApiToken("same-0123456789abcdef", TokenScope.ADMIN),
                new ApiToken("same-0123456789abcdef", TokenScope.READ)), JsonMapper.builder().build());
        assertThat(both.scopeOf("same-0123456789abcdef")).as("the widest scope of a repeated token").contains(TokenScope.ADMIN);
    }
}

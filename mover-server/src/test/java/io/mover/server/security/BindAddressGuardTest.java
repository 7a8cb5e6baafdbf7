package io.mover.server.security;

import java.nio.file.Path;
import java.util.List;

import io.mover.server.MoverServerApplication;
import io.mover.server.config.ApiToken;
import io.mover.server.config.TokenScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BindAddressGuardTest {
    private static final List<ApiToken> TOKENS = List.of(new ApiToken("a-long-enough-secret-token", TokenScope.READ));

    @Test
    void loopbackNeedsNoToken() {
        assertThat(BindAddressGuard.isLoopback("127.0.0.1")).isTrue();
        assertThat(BindAddressGuard.isLoopback("127.3.2.1")).isTrue();
        assertThat(BindAddressGuard.isLoopback("::1")).isTrue();
        assertThat(BindAddressGuard.isLoopback("0.0.0.0")).isFalse();
        assertThat(BindAddressGuard.isLoopback("")).isFalse();
        assertThat(BindAddressGuard.isLoopback(null)).isFalse();
        assertThatCode(() -> BindAddressGuard.check("127.0.0.1", List.of())).doesNotThrowAnyException();
    }

    @Test
    void offLoopbackNeedsATokenAndSaysSo() {
        assertThatThrownBy(() -> BindAddressGuard.check("0.0.0.0", List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to start")
                .hasMessageContaining("mover.tokens[0].token");
        assertThatThrownBy(() -> BindAddressGuard.check(null, List.of())).hasMessageContaining("every interface");
        assertThatCode(() -> BindAddressGuard.check("0.0.0.0", TOKENS)).doesNotThrowAnyException();
    }

    @Test
    void theServerRefusesToStartOffLoopbackWithoutTokens(@TempDir Path data) {
        assertThatThrownBy(() -> MoverServerApplication.start("--mover.address=0.0.0.0", "--server.port=0",
                "--mover.data-dir=" + data, "--spring.main.lazy-initialization=false"))
                .rootCause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to start")
                .hasMessageContaining("0.0.0.0");
    }

    @Test
    void tokensAreNeverPrinted() {
        assertThat(TOKENS.getFirst().toString()).doesNotContain("secret").contains("[hidden]");
        assertThatThrownBy(() -> new ApiToken("short", TokenScope.OPERATE)).hasMessageContaining("shorter than");
    }
}

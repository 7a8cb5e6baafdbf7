package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.FileHandle;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Striping is over addresses of one volume: another export or another root handle behind an address is refused. */
class NfsSameVolumeTest {
    private static final NfsLocation LOCATION = NfsLocation.parse(EndpointUri.parse("nfs://a,b/vol1/data"));
    private static final FileHandle ROOT = new FileHandle(new byte[] {1, 2, 3});

    @Test
    void theSameExportAndRootHandleStripe() {
        assertThatCode(() -> NfsSession.sameVolume(LOCATION, "a", "/vol1", ROOT, "b", "/vol1", new FileHandle(new byte[] {1, 2, 3})))
                .doesNotThrowAnyException();
    }

    @Test
    void anotherVolumeBehindAnAddressIsRefusedNamingBoth() {
        assertThatThrownBy(() -> NfsSession.sameVolume(LOCATION, "a", "/vol1", ROOT, "b", "/vol1", new FileHandle(new byte[] {9})))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("nfs://a,b/vol1/data").hasMessageContaining("b serves /vol1").hasMessageContaining("one job per volume");
        assertThatThrownBy(() -> NfsSession.sameVolume(LOCATION, "a", "/vol1/data", ROOT, "b", "/vol1", ROOT))
                .hasMessageContaining("b serves /vol1 as another volume than a serves /vol1/data");
    }
}

package io.mover.plugins.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import io.mover.spi.ErrorCode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A native call's errno decides the category, whatever language strerror spoke. */
final class IoErrorsTest {
    private static final Path FILE = Path.of("/dst/a.bin");

    @ParameterizedTest
    @CsvSource({
            "28, Espace disponible insuffisant, NO_SPACE",
            "122, Quota de disque dépassé, NO_SPACE",
            "27, Fichier trop volumineux, NO_SPACE",
            "36, Nom de fichier trop long, INVALID_PATH",
            "30, Système de fichiers accessible en lecture seulement, PERMISSION_DENIED",
            "20, N'est pas un répertoire, NOT_A_DIRECTORY",
            "13, Permission non accordée, PERMISSION_DENIED",
            "5, Erreur d'entrée/sortie, IO_ERROR"})
    void aTranslatedReasonIsCategorisedByItsErrno(int errno, String reason, ErrorCode expected) {
        assertThat(IoErrors.map(new NativeError(errno, reason, "write", FILE), "write", FILE).code()).isEqualTo(expected);
    }

    @Test
    void theJdksEnglishReasonsStillCount() {
        var full = new java.nio.file.FileSystemException(FILE.toString(), null, "No space left on device");
        assertThat(IoErrors.map(full, "write", FILE).code()).isEqualTo(ErrorCode.NO_SPACE);
    }
}

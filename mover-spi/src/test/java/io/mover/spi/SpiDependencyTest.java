package io.mover.spi;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/** The SPI is what plugin authors compile against: it may use the JDK and nothing else. */
class SpiDependencyTest {
    @Test
    void theSpiUsesOnlyTheJdk() {
        classes().that().resideInAPackage("io.mover.spi..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.mover.spi..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.mover.spi"));
    }
}

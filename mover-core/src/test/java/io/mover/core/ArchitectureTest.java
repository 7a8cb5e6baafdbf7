package io.mover.core;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** mover-core's module rules, checked on its compiled classes (the parent pom checks its dependencies). */
@AnalyzeClasses(packages = "io.mover.core", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule coreDependsOnNoPlugin = noClasses().that().resideInAPackage("io.mover.core..")
            .should().dependOnClassesThat().resideInAPackage("io.mover.plugins..")
            .because("plugins are loaded through the SPI, never linked to");

    @ArchTest
    static final ArchRule coreUsesNoFramework = noClasses().that().resideInAPackage("io.mover.core..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "io.netty..", "reactor..", "picocli..")
            .because("the engine runs the same under the CLI, the server and in tests");

    @ArchTest
    static final ArchRule engineKnowsNoJobService = noClasses().that().resideInAPackage("io.mover.core.engine..")
            .should().dependOnClassesThat().resideInAPackage("io.mover.core.service..")
            .because("the job service drives the engine, not the other way round");
}

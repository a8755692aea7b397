/**
 * A CI build log (GitHub Actions running a Gradle build of a Kotlin service): timestamped lines,
 * the checkout with its commit, the dependency downloads, Kotlin compiler warnings with
 * file:line:col, test results, a flaky test's trace, the failing test's Java stack trace with its
 * "Caused by:" chain, Gradle's failure summary and the exit code. Questions: the version of a
 * named dependency, the first compiler warning's file and line, the failure's root cause, the
 * full commit SHA among short ones.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { Clock, digits, hex, lookalike, shuffled } from "../vocab.js";

const words = (list: string) => list.trim().split(/\s+/);

/** Artifact families: a Maven group, its artifacts, a major.minor and the patch range drawn. */
const FAMILIES: [string, string[], string, number, number][] = [
  [
    "com.fasterxml.jackson.core",
    words("jackson-databind jackson-core jackson-annotations"),
    "2.17",
    0,
    2,
  ],
  ["com.fasterxml.jackson.module", ["jackson-module-kotlin"], "2.17", 0, 2],
  ["org.jetbrains.kotlin", words("kotlin-stdlib kotlin-reflect"), "1.9", 20, 25],
  [
    "org.jetbrains.kotlinx",
    words("kotlinx-coroutines-core kotlinx-coroutines-reactor"),
    "1.8",
    0,
    1,
  ],
  [
    "org.jetbrains.kotlinx",
    words("kotlinx-serialization-core kotlinx-serialization-json"),
    "1.6",
    2,
    3,
  ],
  [
    "org.springframework.boot",
    words("spring-boot spring-boot-autoconfigure spring-boot-starter-web spring-boot-starter-jdbc"),
    "3.2",
    3,
    5,
  ],
  [
    "org.springframework",
    words("spring-core spring-context spring-beans spring-web spring-jdbc"),
    "6.1",
    5,
    8,
  ],
  ["com.squareup.okhttp3", words("okhttp logging-interceptor mockwebserver"), "4.12", 0, 0],
  ["com.squareup.okio", words("okio okio-jvm"), "3.9", 0, 1],
  ["org.postgresql", ["postgresql"], "42.7", 2, 3],
  ["org.flywaydb", words("flyway-core flyway-database-postgresql"), "10.11", 0, 1],
  ["com.zaxxer", ["HikariCP"], "5.1", 0, 0],
  ["io.micrometer", words("micrometer-core micrometer-registry-prometheus"), "1.12", 4, 6],
  ["org.slf4j", ["slf4j-api"], "2.0", 12, 13],
  ["ch.qos.logback", words("logback-classic logback-core"), "1.5", 3, 6],
  [
    "org.junit.jupiter",
    words("junit-jupiter junit-jupiter-api junit-jupiter-engine junit-jupiter-params"),
    "5.10",
    1,
    2,
  ],
  [
    "org.junit.platform",
    words("junit-platform-commons junit-platform-engine junit-platform-launcher"),
    "1.10",
    1,
    2,
  ],
  ["io.mockk", words("mockk mockk-jvm"), "1.13", 9, 11],
  ["org.assertj", ["assertj-core"], "3.25", 1, 3],
  ["org.apache.commons", ["commons-lang3"], "3.14", 0, 0],
  ["org.apache.commons", ["commons-text"], "1.11", 0, 0],
  ["org.testcontainers", ["testcontainers"], "1.19", 6, 8],
];
/** A dependency asked about and another whose name a reader mixes it up with. */
const TARGETS = [
  ["okhttp", "okio"],
  ["kotlinx-coroutines-core", "kotlinx-serialization-core"],
  ["spring-core", "spring-boot"],
  ["junit-jupiter-api", "junit-platform-commons"],
  ["commons-lang3", "commons-text"],
  ["logback-classic", "slf4j-api"],
  ["flyway-core", "HikariCP"],
] as const;

const SOURCES = words(`OrderService RefundPolicy CartController StockReservation PaymentClient
  InvoiceRenderer ShippingRates SessionStore PriceCalculator WebhookVerifier`);
const WARNINGS = [
  "'toUpperCase(): String' is deprecated. Use uppercase() instead.",
  "Parameter 'context' is never used",
  "Variable 'attempt' is never used",
  "Unchecked cast: Any? to Map<String, Any>",
  "Elvis operator (?:) always returns the left operand of non-nullable type String",
  "'getter for buildDir: File!' is deprecated. Deprecated in Java",
  "Name shadowed: order",
];
const TEST_CLASSES = words(`OrderServiceTest RefundPolicyTest CartControllerTest PriceCalculatorTest
  ShippingRatesTest SessionStoreTest InvoiceRendererTest WebhookVerifierTest StockReservationTest`);
const TEST_NAMES = words(`places_an_order rejects_an_empty_cart rounds_the_tax applies_a_coupon
  keeps_the_ledger_balanced retries_once expires_the_session renders_the_invoice sorts_by_date
  verifies_the_signature reserves_stock releases_stock computes_shipping`);
/** What the failing test's context load finally died of: the message and its telling value. */
/**
 * What the failing test's context load finally died of: the message, its telling value, and an
 * earlier setup line naming a lookalike of that value (the one set up, one digit apart).
 */
function rootCauseOf(rng: Rng): { root: string; value: string; near: string; setup: string } {
  const n = `${rng.range(1, 9)}${digits(rng, 3)}`;
  const m = lookalike(rng, n);
  switch (rng.int(3)) {
    case 0:
      return {
        root: `org.postgresql.util.PSQLException: FATAL: database "shop_test_${n}" does not exist`,
        value: `shop_test_${n}`,
        near: `shop_test_${m}`,
        setup: `Starting service container postgres:16 with POSTGRES_DB=shop_test_${m}`,
      };
    case 1:
      return {
        root: `java.net.UnknownHostException: pg-ci-${n}.internal`,
        value: `pg-ci-${n}.internal`,
        near: `pg-ci-${m}.internal`,
        setup: `Waiting for pg-ci-${m}.internal:5432 to accept connections... ready`,
      };
    default:
      return {
        root: `java.nio.file.NoSuchFileException: /home/runner/work/shop/shop/build/resources/test/keys/ci-signing-${n}.pem`,
        value: `ci-signing-${n}.pem`,
        near: `ci-signing-${m}.pem`,
        setup: `Decrypting secrets/ci-signing-${m}.pem.gpg to src/test/resources/keys/ci-signing-${m}.pem`,
      };
  }
}

const frames = (rng: Rng, pkg: string, count: number) =>
  Array.from({ length: count }, () => {
    const cls = `${rng.pick(["Default", "Abstract", "Simple"])}${rng.pick(["Loader", "Factory", "Initializer", "Delegate"])}`;
    const method = rng.pick(["load", "create", "invoke", "doGet", "initialize"]);
    return `\tat ${pkg}.${cls}.${method}(${cls}.java:${rng.range(40, 900)})`;
  });

export const buildLog: Shape = {
  name: "build-log",
  generate(rng, chars): GeneratedFile {
    const clock = new Clock(rng, [5, 700]);
    const lines: string[] = [];
    const log = (...texts: string[]) => {
      for (const t of texts) {
        const at = clock
          .next()
          .toISOString()
          .replace("Z", `${digits(rng, 4)}Z`);
        lines.push(`${at} ${t}`);
      }
    };
    const sha = hex(rng, 40);
    const short = sha.slice(0, 7);
    const cacheKey = hex(rng, 64);
    const recent = Array.from({ length: 4 }, () => hex(rng, 7));
    const cause = rootCauseOf(rng);
    log(
      "##[group]Runner Image",
      "Image: ubuntu-22.04",
      `Version: 20260${rng.range(1, 9)}${rng.range(10, 28)}.1.0`,
      "##[endgroup]",
      "##[group]Run actions/checkout@v4",
      "with:",
      "  repository: example/shop",
      "  fetch-depth: 1",
      "##[endgroup]",
      "Syncing repository: example/shop",
      `/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +${sha}:refs/remotes/origin/main`,
      "From https://github.com/example/shop",
      ` * [new ref]         ${sha} -> origin/main`,
      `HEAD is now at ${short} Merge pull request #${rng.range(300, 900)} from example/fix-refund-rounding`,
      "##[group]Run ./scripts/changes-since-last-green.sh",
      "Changes since the last green build:",
      ...recent.map(
        (h, i) =>
          `  ${h} ${["Bump okhttp", "Fix refund rounding", "Add stock alerts", "Tidy logging"][i]}`,
      ),
      "##[endgroup]",
      "##[group]Run actions/setup-java@v4",
      "Java configuration:",
      "  Distribution: temurin",
      "  Version: 21.0.2+13",
      "  Path: /opt/hostedtoolcache/Java_Temurin-Hotspot_jdk/21.0.2-13/x64",
      `Cache restored from key: setup-java-Linux-x64-gradle-${cacheKey}`,
      "##[endgroup]",
      cause.setup,
      "##[group]Run ./gradlew build --no-daemon",
      "Downloading https://services.gradle.org/distributions/gradle-8.7-bin.zip",
      "Welcome to Gradle 8.7!",
      "> Task :checkKotlinGradlePluginConfigurationErrors",
    );

    // Dependencies: POMs while resolving, jars after, each artifact one version. A small log
    // downloads fewer families (about 1,000 characters each), always the asked one's and its
    // lookalike's.
    const [asked, mixed] = rng.pick(TARGETS);
    const needed = (f: (typeof FAMILIES)[number]) => f[1].includes(asked) || f[1].includes(mixed);
    const families = [
      ...FAMILIES.filter(needed),
      ...shuffled(
        rng,
        FAMILIES.filter((f) => !needed(f)),
      ).slice(0, Math.max(4, Math.round(chars / 2800))),
    ];
    const versions = new Map<string, string>();
    const deps: [string, string][] = [];
    for (const [group, artifacts, minor, lo, hi] of families) {
      const version = `${minor}.${rng.range(lo, hi)}`;
      for (const a of artifacts) {
        versions.set(a, version);
        deps.push([group, a]);
      }
    }
    const url = ([group, a]: [string, string], ext: string) =>
      `Download https://repo.maven.apache.org/maven2/${group.replaceAll(".", "/")}/${a}/${versions.get(a)}/${a}-${versions.get(a)}.${ext}`;
    const order = shuffled(rng, deps);
    log(...order.map((d) => url(d, "pom")));
    log(...shuffled(rng, deps).map((d) => url(d, "jar")));
    const at = order.findIndex(([, a]) => a === asked);
    const listed = [order[at - 1], order[at + 1]].flatMap((d) => (d ? [d[1]] : []));

    // Compiler warnings: the first two in one file, the rest elsewhere.
    log("> Task :compileKotlin");
    const files = shuffled(rng, SOURCES);
    const warned: string[] = [];
    let line = rng.range(20, 140);
    const count = rng.range(6, 11);
    for (let i = 0; i < count; i++) {
      const file = files[i === 0 ? 0 : i - 1]!;
      line = i === 1 ? line + rng.range(8, 90) : rng.range(12, 400);
      warned.push(`${file}.kt:${line}`);
      log(
        `w: file:///home/runner/work/shop/shop/src/main/kotlin/com/example/shop/${file}.kt:${line}:${rng.range(5, 60)} ${rng.pick(WARNINGS)}`,
      );
    }
    log(
      "> Task :compileJava NO-SOURCE",
      "> Task :processResources",
      "> Task :classes",
      "> Task :jar",
      "> Task :compileTestKotlin",
      "> Task :test",
    );

    // Tests pass, one flaky test fails once with its own cause and passes on retry, then the
    // integration test fails for good.
    const testLine = () =>
      `${rng.pick(TEST_CLASSES)} > ${rng.pick(TEST_NAMES)}_${rng.pick(["for_a_guest", "twice", "in_eur", "when_empty", "after_timeout"])}() PASSED`;
    const flakyTest = () =>
      log(
        "PaymentClientTest > retries_after_timeout() FAILED",
        "    java.net.SocketTimeoutException: timeout",
        "        at okhttp3.internal.http2.Http2Stream$StreamTimeout.newTimeoutException(Http2Stream.kt:675)",
        "        at okhttp3.internal.http2.Http2Stream$StreamTimeout.exitAndThrowIfTimedOut(Http2Stream.kt:684)",
        "    Caused by: java.net.SocketException: Socket closed",
        "        at java.base/sun.nio.ch.NioSocketImpl.endRead(NioSocketImpl.java:243)",
        "PaymentClientTest > retries_after_timeout() PASSED (retry 1 of 2)",
      );
    let flaky = false;
    let size = lines.reduce((s, l) => s + l.length + 1, 0);
    while (size < chars * 0.9) {
      const before = lines.length;
      if (!flaky && size > chars * 0.6) {
        flaky = true;
        flakyTest();
      } else log(testLine());
      for (const l of lines.slice(before)) size += l.length + 1;
    }
    if (!flaky) flakyTest();
    const mid = "org.springframework.beans.factory.BeanCreationException";
    const tasks = rng.range(8, 14);
    log(
      "OrderRepositoryIT > saves_and_loads_an_order() FAILED",
      `java.lang.IllegalStateException: Failed to load ApplicationContext for [WebMergedContextConfiguration@${hex(rng, 6)} testClass = com.example.shop.orders.OrderRepositoryIT]`,
      ...frames(rng, "org.springframework.test.context.cache", 6),
      `Caused by: ${mid}: Error creating bean with name 'flywayInitializer' defined in class path resource [org/springframework/boot/autoconfigure/flyway/FlywayAutoConfiguration$FlywayConfiguration.class]: Unable to obtain a connection for user 'shop'`,
      ...frames(rng, "org.springframework.beans.factory.support", 4),
      `\t... ${rng.range(30, 60)} more`,
      "Caused by: org.flywaydb.core.internal.exception.FlywaySqlException: Unable to obtain connection from database",
      ...frames(rng, "org.flywaydb.core.internal.jdbc", 3),
      `\t... ${rng.range(60, 80)} more`,
      `Caused by: ${cause.root}`,
      ...frames(rng, "org.postgresql.core.v3", 3),
      `\t... ${rng.range(80, 99)} more`,
      "",
      `${lines.filter((l) => l.endsWith("PASSED")).length + 1} tests completed, 1 failed`,
      "> Task :test FAILED",
      "",
      "FAILURE: Build failed with an exception.",
      "",
      "* What went wrong:",
      "Execution failed for task ':test'.",
      "> There were failing tests. See the report at: file:///home/runner/work/shop/shop/build/reports/tests/test/index.html",
      "",
      `BUILD FAILED in ${rng.range(2, 6)}m ${rng.range(0, 59)}s`,
      `${tasks} actionable tasks: ${tasks} executed`,
      "##[error]Process completed with exit code 1.",
    );

    return {
      name: "build.log",
      text: `${lines.join("\n")}\n`,
      questions: [
        {
          kind: "lookup",
          expected: versions.get(asked)!,
          decoys: [mixed, ...listed]
            .map((a) => versions.get(a)!)
            .filter((v) => v !== versions.get(asked)),
          phrasings: [
            `Which version of ${asked} did the build download? The log is {file}.`,
            `In {file}, what ${asked} version is used?`,
            `{file}: ${asked} version?`,
            `We need to know which ${asked} release this CI run pulled in. Can you check {file}?`,
            `Find the download of the ${asked} artifact in {file} and tell me its version number.`,
          ],
        },
        {
          kind: "ordinal",
          expected: warned[0]!,
          decoys: warned.slice(1, 4),
          phrasings: [
            "Which file and line does the first compiler warning in {file} point to?",
            "In {file}, where is the first Kotlin warning (the first w: line)? Give file:line.",
            "{file}: first warning, which file and line number?",
            "The build prints some compiler warnings before the tests. Where in the code is the very first one? See {file}.",
            "Give me the source file and line of the earliest compiler warning in {file}.",
          ],
        },
        {
          kind: "cross-field",
          expected: cause.value,
          decoys: [cause.near, "Socket closed"],
          phrasings: [
            "What is the root cause of the test failure that broke the build in {file}? Quote the last Caused by.",
            "In {file}, OrderRepositoryIT failed. What's at the bottom of its Caused by chain?",
            "{file}: innermost Caused by of the failing test?",
            "Why did the build fail? I want the underlying exception message, not the Spring wrapper. The log is {file}.",
            "Find the stack trace of the failed test in {file} and tell me its root cause message.",
          ],
        },
        {
          kind: "pattern",
          expected: sha,
          decoys: [cacheKey, ...recent],
          phrasings: [
            "What is the full commit SHA (all 40 hex characters) this build checked out? See {file}.",
            "Which full-length git commit hash appears in {file}?",
            "{file}: give me the complete 40-character SHA of the commit that was built.",
            "I need the commit the CI run built, as a full hash, not the short 7-character one. It's in {file}.",
            "Find the 40-hex-digit commit id in {file}.",
          ],
        },
      ],
    };
  },
};

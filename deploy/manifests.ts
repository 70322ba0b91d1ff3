/**
 * The Kubernetes manifests of deploy/kubernetes.yaml, written as typed objects of `kubernetes-models` (whose
 * classes carry the Kubernetes OpenAPI JSON schemas and validate against them). scripts/k8s_manifests.ts writes
 * the YAML; tests/unit/deploy_test.ts validates every object and checks the file is current.
 *
 * Sizing comes from the figures of scripts/deploy_check.ts (docs/deploy.md, "Sizing").
 *
 * @module
 */
import { Deployment } from "kubernetes-models/apps/v1";
import { Job } from "kubernetes-models/batch/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Service } from "kubernetes-models/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { stringify } from "yaml";
import { VERSION } from "../src/version.ts";

/** Name of every object, and the `app.kubernetes.io/name` label the Service and budget select on. */
export const APP = "chem-mcp";
/** The port the image's entrypoint listens on (deploy/Containerfile). */
export const CONTAINER_PORT = 3000;
/** The image's user (deploy/Containerfile `USER`). */
export const RUN_AS = 65532;

const selector = { "app.kubernetes.io/name": APP };
const labels = { ...selector, "app.kubernetes.io/version": VERSION };

/** The server: stateless replicas, probed on the listener (see docs/deploy.md, "Probes"). */
export function deployment(image = `${APP}:${VERSION}`): Deployment {
  // Listening means RDKit is loaded and requests are served: the listener opens only after that.
  const tcp = { tcpSocket: { port: "http" } };
  return new Deployment({
    metadata: { name: APP, labels },
    // No `replicas`: the HorizontalPodAutoscaler owns the count, and a fixed one here would be re-applied over it.
    spec: {
      selector: { matchLabels: selector },
      // Never below the current count during a rollout: a new pod is ready before an old one goes.
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          // A pod gets SIGTERM after preStop: 5 s for Services and proxies to stop sending it new requests, then
          // the server exits at once (tool calls finish in milliseconds to seconds; a proxy retries the rest).
          terminationGracePeriodSeconds: 20,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: RUN_AS,
            runAsGroup: RUN_AS,
            seccompProfile: { type: "RuntimeDefault" },
          },
          topologySpreadConstraints: [{
            maxSkew: 1,
            topologyKey: "kubernetes.io/hostname",
            whenUnsatisfiable: "ScheduleAnyway",
            labelSelector: { matchLabels: selector },
          }],
          containers: [{
            name: APP,
            image,
            imagePullPolicy: "IfNotPresent",
            ports: [{ name: "http", containerPort: CONTAINER_PORT, protocol: "TCP" }],
            // The pool's default size is the cores the process may run on, which in a container is the node's
            // count, not the CPU limit: one worker per core of the limit, each 90–120 MiB, fits the memory limit.
            env: [{ name: "CHEM_MCP_WORKERS", value: "2" }],
            resources: {
              requests: { cpu: "1", memory: "384Mi" },
              limits: { cpu: "2", memory: "512Mi" },
            },
            securityContext: {
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ["ALL"] },
            },
            startupProbe: { ...tcp, periodSeconds: 1, failureThreshold: 30 },
            readinessProbe: { ...tcp, periodSeconds: 5, failureThreshold: 2 },
            livenessProbe: { ...tcp, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 },
            lifecycle: { preStop: { sleep: { seconds: 5 } } },
          }],
        },
      },
    },
  });
}

/** The PersistentVolumeClaim holding the compound library file and its index cache (the operator provides it). */
export const LIBRARY_CLAIM = `${APP}-library`;
/** Where the library volume is mounted, the file in it, and the index cache beside it. */
export const LIBRARY_MOUNT = "/library";
export const LIBRARY_ARGS = [
  "--library",
  `${LIBRARY_MOUNT}/deck.smi.gz`,
  "--library-cache",
  `${LIBRARY_MOUNT}/cache`,
];

/**
 * The Deployment serving `library_search` over a compound library: every replica mounts the same claim read-only
 * and reads the index the {@link libraryIndexJob} cached there (a replica that finds no matching cache builds the
 * index in memory and says so on stderr). Memory for a million molecules: about 1.2 GiB settled, 2 GiB at the peak
 * while RDKit's substructure libraries fill after the start, so the limit leaves room above that peak.
 */
export function libraryDeployment(image = `${APP}:${VERSION}`): Deployment {
  const made = deployment(image);
  const pod = made.spec!.template.spec!;
  const container = pod.containers[0]!;
  container.args = [...LIBRARY_ARGS];
  container.volumeMounts = [{ name: "library", mountPath: LIBRARY_MOUNT, readOnly: true }];
  container.resources = { requests: { cpu: "1", memory: "1536Mi" }, limits: { cpu: "2", memory: "3Gi" } };
  // An index built in memory (no cache yet) takes minutes for a million molecules: the start may take 10.
  container.startupProbe = { ...container.startupProbe, periodSeconds: 5, failureThreshold: 120 };
  pod.volumes = [{ name: "library", persistentVolumeClaim: { claimName: LIBRARY_CLAIM, readOnly: true } }];
  return made;
}

/**
 * Builds the library's index once into the claim (run when the file changes): the server on stdio with stdin
 * closed indexes the library, writes the cache and exits.
 */
export function libraryIndexJob(image = `${APP}:${VERSION}`): Job {
  return new Job({
    metadata: { name: `${APP}-library-index`, labels },
    spec: {
      backoffLimit: 1,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: RUN_AS, runAsGroup: RUN_AS },
          containers: [{
            name: "index",
            image,
            command: ["/usr/local/bin/chem-mcp", ...LIBRARY_ARGS],
            volumeMounts: [{ name: "library", mountPath: LIBRARY_MOUNT }],
            // Every tool worker builds a batch at once: two cores halve the build.
            resources: { requests: { cpu: "1", memory: "1536Mi" }, limits: { cpu: "2", memory: "3Gi" } },
            securityContext: {
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ["ALL"] },
            },
          }],
          volumes: [{ name: "library", persistentVolumeClaim: { claimName: LIBRARY_CLAIM } }],
        },
      },
    },
  });
}

/** deploy/kubernetes-library.yaml: the index Job, then the Deployment that serves the library. */
export function renderLibraryManifests(): string {
  const header =
    "# Generated by scripts/k8s_manifests.ts from deploy/manifests.ts: edit those, not this file.\n" +
    '# A compound library for library_search (docs/deploy.md, "A compound library"): apply after\n' +
    "# kubernetes.yaml, in place of its Deployment, with a claim named chem-mcp-library holding deck.smi.gz.\n";
  return header +
    [libraryIndexJob(), libraryDeployment()].map((m) => `---\n${stringify(m.toJSON())}`).join("");
}

/** One stable name in front of the replicas; no session affinity (every request stands alone). */
export function service(): Service {
  return new Service({
    metadata: { name: APP, labels },
    spec: {
      type: "ClusterIP",
      selector,
      sessionAffinity: "None",
      ports: [{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }],
    },
  });
}

/** Scales on CPU: a replica's throughput is bound by its main thread's CPU (docs/deploy.md, "Sizing"). */
export function autoscaler(): HorizontalPodAutoscaler {
  return new HorizontalPodAutoscaler({
    metadata: { name: APP, labels },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: APP },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [{
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } },
      }],
    },
  });
}

/** Keeps one replica serving through voluntary disruptions (node drains, upgrades). */
export function disruptionBudget(): PodDisruptionBudget {
  return new PodDisruptionBudget({
    metadata: { name: APP, labels },
    spec: { minAvailable: 1, selector: { matchLabels: selector } },
  });
}

/** Every manifest, in the order they are applied. */
export function manifests(
  image?: string,
): [Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget] {
  return [deployment(image), service(), autoscaler(), disruptionBudget()];
}

/** deploy/kubernetes.yaml: the manifests as one multi-document YAML file. */
export function renderManifests(): string {
  const header =
    "# Generated by scripts/k8s_manifests.ts from deploy/manifests.ts: edit those, not this file.\n" +
    "# Set the image to where you pushed the one scripts/build_image.ts builds.\n";
  return header + manifests().map((m) => `---\n${stringify(m.toJSON())}`).join("");
}

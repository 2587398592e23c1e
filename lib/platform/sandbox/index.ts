export { closeSandbox, prepareSandbox, runSandboxed, type SandboxLimits, SandboxRefusal, type SandboxRefusalReason, sandboxRefusalError, type SandboxTask, sandboxTask } from './sandbox';

/** The parts of the Khronos glTF validator (npm gltf-validator, a devDependency) the tests use. */
declare module "gltf-validator" {
  export interface ValidationMessage {
    code: string;
    message: string;
    /** 0 error, 1 warning, 2 information, 3 hint */
    severity: number;
    pointer?: string;
    offset?: number;
  }
  export interface ValidationReport {
    validatorVersion: string;
    issues: {
      numErrors: number;
      numWarnings: number;
      numInfos: number;
      numHints: number;
      messages: ValidationMessage[];
      truncated: boolean;
    };
    info?: Record<string, unknown>;
  }
  export interface ValidationOptions {
    uri?: string;
    format?: "glb" | "gltf";
    writeTimestamp?: boolean;
    maxIssues?: number;
    ignoredIssues?: string[];
    onlyIssues?: string[];
    severityOverrides?: Record<string, number>;
  }
  export function validateBytes(data: Uint8Array, options?: ValidationOptions): Promise<ValidationReport>;
  export function version(): string;
}

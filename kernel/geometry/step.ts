/**
 * Reads a STEP file (AP203, AP214, AP242) into one OCCT solid in millimetres.
 *
 * OCCT converts lengths from the file's declared unit (SI_UNIT with a prefix, or a
 * CONVERSION_BASED_UNIT such as INCH) to the reader's system unit, set here to millimetres;
 * `unitsRead` reports what the file declared for its geometry (FileUnits).
 *
 * Refused: a file OCCT cannot parse or that is cut short (corrupt_file, with the parser's words),
 * a file with no solid (no_solid) or several (multiple_solids).
 */
import type { OpenCascadeInstance, STEPControl_Reader } from "opencascade.js/dist/node.js";
import { withInputFile } from "./emscripten-file.ts";
import { withOcctScope, type OcctScope } from "./occt-scope.ts";
import { describeOcctException, takeOcctMessages } from "./opencascade.ts";
import { singleSolid, type SingleSolid } from "./single-solid.ts";
import { checkStepIntegrity, type StepIntegrity } from "./step-integrity.ts";
import { GeometryError } from "../geometry-error.ts";
import type { IngestedWorkpiece } from "./types.ts";

type Warning = IngestedWorkpiece["warnings"][number];

export interface StepRead extends SingleSolid {
  /** "mm", "inch", "m", ...; "unknown" when the file declares no length unit */
  unitsRead: string;
}

const MILLIMETRE = 1;

/**
 * Reads `bytes`; the solid is owned by `scope`. `withReader` sees the reader and the solid
 * before the reader is released (the face-to-entity map needs its transfer results).
 */
export function readStep(
  oc: OpenCascadeInstance,
  bytes: Uint8Array,
  scope: OcctScope,
  withReader?: (reader: STEPControl_Reader, solid: SingleSolid["solid"]) => void,
): StepRead {
  const integrity = checkStepIntegrity(new TextDecoder("latin1").decode(bytes));
  if (!integrity.terminated) {
    throw new GeometryError(
      "corrupt_file",
      "The STEP file is cut short: it does not end with END-ISO-10303-21; (an incomplete upload or export?).",
      {
        reason: "truncated",
      },
    );
  }
  takeOcctMessages(); // drop anything older than this read
  return withOcctScope((local) => {
    const reader = local.own(new oc.STEPControl_Reader_1());
    reader.SetSystemLengthUnit(MILLIMETRE);
    let transferred: number;
    try {
      const status = withInputFile(oc, bytes, "step", (path) => reader.ReadFile(path));
      if (status !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) {
        throw corrupt("OCCT could not parse the STEP file", integrity);
      }
      if (reader.NbRootsForTransfer() === 0) {
        // parsed, but nothing in it is a shape representation
        throw new GeometryError("no_solid", "The STEP file holds no shape.", { solids: 0, faces: 0 });
      }
      transferred = reader.TransferRoots(local.own(new oc.Message_ProgressRange_1()));
    } catch (error) {
      if (error instanceof GeometryError) throw error;
      throw corrupt(`OCCT failed while reading the STEP file: ${describeOcctException(oc, error)}`, integrity);
    }
    if (transferred === 0) throw corrupt("None of the STEP file's shapes could be translated", integrity);

    const shape = local.own(reader.OneShape());
    let found: SingleSolid;
    try {
      found = singleSolid(oc, shape, scope, "STEP");
    } catch (error) {
      // a file with dangling references that yields no solid is damaged, not a surface model
      if (error instanceof GeometryError && error.code === "no_solid" && integrity.undefinedReferences > 0) {
        throw corrupt("The STEP file refers to entities it does not define, and no solid could be built", integrity);
      }
      throw error;
    }
    const warnings: Warning[] = [...found.warnings];
    if (integrity.undefinedReferences > 0) {
      warnings.push({
        code: "unresolved_references",
        message: `The STEP file refers to ${integrity.undefinedReferences} entities it does not define; the solid was read without them.`,
      });
    }
    const units = declaredLengthUnits(oc, reader, local);
    if (units.length > 1) {
      warnings.push({
        code: "mixed_units",
        message: `The STEP file declares several length units (${units.join(", ")}); ${units[0]} was taken for the part.`,
      });
    }
    withReader?.(reader, found.solid);
    return { solid: found.solid, unitsRead: units[0] ?? "unknown", warnings };
  });
}

function corrupt(message: string, integrity: StepIntegrity): GeometryError {
  const parser = takeOcctMessages()
    .filter((line) => /ERR|FAIL|error/i.test(line))
    .slice(0, 5);
  const details: Record<string, unknown> = {};
  if (parser.length > 0) details.parser = parser;
  if (integrity.undefinedReferences > 0) {
    details.undefinedReferences = integrity.undefinedReferences;
    details.undefinedSample = integrity.undefinedSample.map((id) => `#${id}`);
  }
  const quoted = parser[0] === undefined ? "" : ` (${parser[0].replace(/^\*+\s*|\s*\*+$/g, "")})`;
  return new GeometryError("corrupt_file", `${message}${quoted}.`, details);
}

/** The length units of the file's representation contexts, normalised and without repeats. */
function declaredLengthUnits(oc: OpenCascadeInstance, reader: STEPControl_Reader, scope: OcctScope): string[] {
  const lengths = scope.own(new oc.TColStd_SequenceOfAsciiString_1());
  const angles = scope.own(new oc.TColStd_SequenceOfAsciiString_1());
  const solidAngles = scope.own(new oc.TColStd_SequenceOfAsciiString_1());
  reader.FileUnits(lengths, angles, solidAngles);
  const names = new Set<string>();
  for (let i = 1; i <= lengths.Length(); i++) {
    const name = scope.own(lengths.Value(i)).ToCString();
    names.add(normaliseLengthUnit(name));
  }
  return [...names];
}

const UNIT_NAMES: Record<string, string> = {
  millimetre: "mm",
  millimeter: "mm",
  mm: "mm",
  centimetre: "cm",
  centimeter: "cm",
  metre: "m",
  meter: "m",
  kilometre: "km",
  kilometer: "km",
  micrometre: "um",
  micrometer: "um",
  micron: "um",
  inch: "inch",
  in: "inch",
  foot: "ft",
  feet: "ft",
  ft: "ft",
  mil: "mil",
  yard: "yd",
  mile: "mile",
};

export function normaliseLengthUnit(name: string): string {
  const key = name.trim().toLowerCase();
  return UNIT_NAMES[key] ?? (key === "" ? "unknown" : key);
}

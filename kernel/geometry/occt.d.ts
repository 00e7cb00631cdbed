/**
 * Types for the part of opencascade.js (2.0.0-beta.6e177a4, OCCT 7.6) that Swarf uses.
 *
 * The package's own declarations (node_modules/opencascade.js/dist/opencascade.full.d.ts, 9 MB)
 * import "./opencascade.full" without an extension, which NodeNext cannot resolve, so every
 * OCCT value would be `any`. An ambient module declaration takes precedence over the package's
 * file, so this is what the compiler sees. Declare only what we call; add a method here before
 * using it (its signature is in the package's file, under the same class name).
 *
 * Conventions of the binding (embind):
 * - overloads are numbered: `Read_2`, `VolumeProperties_1`; constructors too: `new
 *   oc.TopLoc_Location_1()`.
 * - Every object created from JavaScript, and every object a method returns by value or by
 *   reference (a copy), lives in WASM memory until `delete()` is called. `Handle_X.get()` is the
 *   exception: a borrowed pointer that must not be deleted (the handle owns it).
 * - Enumeration values are objects compared by identity (`a === oc.TopAbs_ShapeEnum.TopAbs_FACE`).
 * - A C++ exception arrives in JavaScript as a number (a pointer); `OCJS.getStandard_FailureData`
 *   turns a Standard_Failure pointer into an object with the message.
 * - Integer out-parameters (`Standard_Real&`) are not writable from JavaScript; use methods that
 *   return values instead.
 *
 * This file is a script (no top-level import or export) so that the `declare module` below is an
 * ambient declaration. tsconfig's skipLibCheck means the compiler does not check this file
 * itself: keep it simple.
 */
declare module "opencascade.js/dist/node.js" {
  /** An embind enumeration value; `Name` keeps different enumerations apart at compile time. */
  export interface OcEnumValue<Name extends string> {
    readonly value: number;
    /** compile-time brand only, absent at run time */
    readonly __ocEnum?: Name;
  }

  export interface Deletable {
    delete(): void;
  }

  export type TopAbs_ShapeEnum = OcEnumValue<"TopAbs_ShapeEnum">;
  export type TopAbs_Orientation = OcEnumValue<"TopAbs_Orientation">;
  export type IFSelect_ReturnStatus = OcEnumValue<"IFSelect_ReturnStatus">;
  export type STEPControl_StepModelType = OcEnumValue<"STEPControl_StepModelType">;
  export type TopTools_FormatVersion = OcEnumValue<"TopTools_FormatVersion">;

  export interface Message_ProgressRange extends Deletable {}

  export interface gp_Pnt extends Deletable {
    X(): number;
    Y(): number;
    Z(): number;
  }
  export interface gp_Dir extends Deletable {
    X(): number;
    Y(): number;
    Z(): number;
  }
  export interface gp_Trsf extends Deletable {
    /** row 1..3, column 1..4; includes the scale factor */
    Value(row: number, column: number): number;
    IsNegative(): boolean;
    SetValues(
      a11: number,
      a12: number,
      a13: number,
      a14: number,
      a21: number,
      a22: number,
      a23: number,
      a24: number,
      a31: number,
      a32: number,
      a33: number,
      a34: number,
    ): void;
  }
  export interface TopLoc_Location extends Deletable {
    IsIdentity(): boolean;
    Transformation(): gp_Trsf;
  }

  export interface TopoDS_Shape extends Deletable {
    IsNull(): boolean;
    /** drops the reference to the B-rep data (see occt-release.ts) */
    Nullify(): void;
    Location_2(location: TopLoc_Location, raiseException: boolean): void;
    ShapeType(): TopAbs_ShapeEnum;
    Orientation_1(): TopAbs_Orientation;
    /** a copy of this shape moved by `location` */
    Moved(location: TopLoc_Location, raiseException: boolean): TopoDS_Shape;
    IsSame(other: TopoDS_Shape): boolean;
  }
  export interface TopoDS_Face extends TopoDS_Shape {}
  export interface TopoDS_Shell extends TopoDS_Shape {}
  export interface TopoDS_Solid extends TopoDS_Shape {}
  export interface TopoDS_Compound extends TopoDS_Shape {}

  export interface TopExp_Explorer extends Deletable {
    More(): boolean;
    Next(): void;
    Current(): TopoDS_Shape;
  }

  export interface BRep_Builder extends Deletable {
    MakeCompound(compound: TopoDS_Compound): void;
    MakeShell(shell: TopoDS_Shell): void;
    MakeSolid(solid: TopoDS_Solid): void;
    Add(to: TopoDS_Shape, what: TopoDS_Shape): void;
  }

  export interface TCollection_AsciiString extends Deletable {
    ToCString(): string;
  }
  export interface TColStd_SequenceOfAsciiString extends Deletable {
    Length(): number;
    /** 1-based */
    Value(index: number): TCollection_AsciiString;
  }

  export interface STEPControl_Reader extends Deletable {
    ReadFile(path: string): IFSelect_ReturnStatus;
    NbRootsForTransfer(): number;
    TransferRoots(progress: Message_ProgressRange): number;
    NbShapes(): number;
    OneShape(): TopoDS_Shape;
    FileUnits(
      lengthNames: TColStd_SequenceOfAsciiString,
      angleNames: TColStd_SequenceOfAsciiString,
      solidAngleNames: TColStd_SequenceOfAsciiString,
    ): void;
    /** the unit OCCT converts lengths to, in millimetres (1 = mm) */
    SetSystemLengthUnit(unitInMm: number): void;
    SystemLengthUnit(): number;
  }
  export interface STEPControl_Writer extends Deletable {
    Transfer(
      shape: TopoDS_Shape,
      mode: STEPControl_StepModelType,
      computeGraph: boolean,
      progress: Message_ProgressRange,
    ): IFSelect_ReturnStatus;
    Write(path: string): IFSelect_ReturnStatus;
  }

  export interface Poly_Triangle extends Deletable {
    /** 1..3, a 1-based node index */
    Value(index: number): number;
  }
  /** Borrowed from its handle: never delete. */
  export interface Poly_Triangulation {
    NbNodes(): number;
    NbTriangles(): number;
    /** 1-based */
    Node(index: number): gp_Pnt;
    /** 1-based */
    Triangle(index: number): Poly_Triangle;
    HasNormals(): boolean;
    /** 1-based */
    Normal_1(index: number): gp_Dir;
  }
  export interface Handle_Poly_Triangulation extends Deletable {
    IsNull(): boolean;
    Nullify(): void;
    get(): Poly_Triangulation;
  }

  export interface BRepMesh_IncrementalMesh extends Deletable {
    /** 0 when every face was meshed; bit flags of BRepMesh_Status otherwise */
    GetStatusFlags(): number;
  }

  export interface GProp_GProps extends Deletable {
    Mass(): number;
  }
  export interface Bnd_Box extends Deletable {
    IsVoid(): boolean;
    CornerMin(): gp_Pnt;
    CornerMax(): gp_Pnt;
  }

  export interface BRepPrimAPI_MakeBox extends Deletable {
    Solid(): TopoDS_Solid;
    Shell(): TopoDS_Shell;
    TopFace(): TopoDS_Face;
  }

  export interface Standard_Failure {
    GetMessageString(): string;
  }

  /** MEMFS, the in-memory file system OCCT reads and writes through. */
  export interface EmscriptenFS {
    writeFile(path: string, data: string | ArrayBufferView): void;
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
    mkdir(path: string): void;
    analyzePath(path: string): { exists: boolean };
  }

  export interface OpenCascadeInstance {
    FS: EmscriptenFS;
    /** the WASM memory; its length is the heap's current size (it only grows) */
    HEAPU8: Uint8Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;

    OCJS: { getStandard_FailureData(exceptionPointer: number): Standard_Failure };

    TopAbs_ShapeEnum: {
      TopAbs_COMPOUND: TopAbs_ShapeEnum;
      TopAbs_COMPSOLID: TopAbs_ShapeEnum;
      TopAbs_SOLID: TopAbs_ShapeEnum;
      TopAbs_SHELL: TopAbs_ShapeEnum;
      TopAbs_FACE: TopAbs_ShapeEnum;
      TopAbs_WIRE: TopAbs_ShapeEnum;
      TopAbs_EDGE: TopAbs_ShapeEnum;
      TopAbs_VERTEX: TopAbs_ShapeEnum;
      TopAbs_SHAPE: TopAbs_ShapeEnum;
    };
    TopAbs_Orientation: {
      TopAbs_FORWARD: TopAbs_Orientation;
      TopAbs_REVERSED: TopAbs_Orientation;
      TopAbs_INTERNAL: TopAbs_Orientation;
      TopAbs_EXTERNAL: TopAbs_Orientation;
    };
    IFSelect_ReturnStatus: {
      IFSelect_RetVoid: IFSelect_ReturnStatus;
      IFSelect_RetDone: IFSelect_ReturnStatus;
      IFSelect_RetError: IFSelect_ReturnStatus;
      IFSelect_RetFail: IFSelect_ReturnStatus;
      IFSelect_RetStop: IFSelect_ReturnStatus;
    };
    STEPControl_StepModelType: {
      STEPControl_AsIs: STEPControl_StepModelType;
    };
    TopTools_FormatVersion: {
      TopTools_FormatVersion_VERSION_1: TopTools_FormatVersion;
      TopTools_FormatVersion_VERSION_2: TopTools_FormatVersion;
      TopTools_FormatVersion_VERSION_3: TopTools_FormatVersion;
      TopTools_FormatVersion_CURRENT: TopTools_FormatVersion;
    };

    Message_ProgressRange_1: new () => Message_ProgressRange;

    gp_Pnt_3: new (x: number, y: number, z: number) => gp_Pnt;
    gp_Dir_4: new (x: number, y: number, z: number) => gp_Dir;
    Poly_Triangle_2: new (n1: number, n2: number, n3: number) => Poly_Triangle;
    TCollection_AsciiString_1: new () => TCollection_AsciiString;
    gp_Trsf_1: new () => gp_Trsf;
    TopLoc_Location_1: new () => TopLoc_Location;
    TopLoc_Location_2: new (transformation: gp_Trsf) => TopLoc_Location;

    TopoDS_Shape: new () => TopoDS_Shape;
    TopoDS_Face: new () => TopoDS_Face;
    TopoDS_Shell: new () => TopoDS_Shell;
    TopoDS_Solid: new () => TopoDS_Solid;
    TopoDS_Compound: new () => TopoDS_Compound;
    /** downcasts; each returns a new object */
    TopoDS: {
      Face_1(shape: TopoDS_Shape): TopoDS_Face;
      Shell_1(shape: TopoDS_Shape): TopoDS_Shell;
      Solid_1(shape: TopoDS_Shape): TopoDS_Solid;
    };
    TopExp_Explorer_2: new (
      shape: TopoDS_Shape,
      toFind: TopAbs_ShapeEnum,
      toAvoid: TopAbs_ShapeEnum,
    ) => TopExp_Explorer;
    BRep_Builder: new () => BRep_Builder;

    TColStd_SequenceOfAsciiString_1: new () => TColStd_SequenceOfAsciiString;
    STEPControl_Reader_1: new () => STEPControl_Reader;
    STEPControl_Writer_1: new () => STEPControl_Writer;

    BRepTools: {
      /** reads an OCCT BREP file into `shape`; false when it could not */
      Read_2(shape: TopoDS_Shape, path: string, builder: BRep_Builder, progress: Message_ProgressRange): boolean;
      Write_4(
        shape: TopoDS_Shape,
        path: string,
        withTriangles: boolean,
        withNormals: boolean,
        version: TopTools_FormatVersion,
        progress: Message_ProgressRange,
      ): boolean;
      /** removes triangulations (and polygons on them) from every face */
      Clean(shape: TopoDS_Shape, force: boolean): void;
    };
    BRep_Tool: {
      /** `location` receives the face's location; purpose 0 = Poly_MeshPurpose_NONE */
      Triangulation(face: TopoDS_Face, location: TopLoc_Location, purpose: number): Handle_Poly_Triangulation;
      /** for a shell: true when it has no free edges */
      IsClosed_1(shape: TopoDS_Shape): boolean;
    };
    BRepMesh_IncrementalMesh_2: new (
      shape: TopoDS_Shape,
      linearDeflection: number,
      isRelative: boolean,
      angularDeflection: number,
      inParallel: boolean,
    ) => BRepMesh_IncrementalMesh;
    StdPrs_ToolTriangulatedShape: {
      /** adds normals from the surface (in the face's own coordinates, not oriented) */
      ComputeNormals_1(face: TopoDS_Face, triangulation: Handle_Poly_Triangulation): void;
    };

    GProp_GProps_1: new () => GProp_GProps;
    BRepGProp: {
      VolumeProperties_1(
        shape: TopoDS_Shape,
        properties: GProp_GProps,
        onlyClosed: boolean,
        skipShared: boolean,
        useTriangulation: boolean,
      ): void;
    };
    Bnd_Box_1: new () => Bnd_Box;
    BRepBndLib: {
      /** quick box, enlarged by tolerances (and loose on B-spline faces) */
      Add(shape: TopoDS_Shape, box: Bnd_Box, useTriangulation: boolean): void;
      /** tight box from the exact geometry; can take seconds on B-spline faces */
      AddOptimal(shape: TopoDS_Shape, box: Bnd_Box, useTriangulation: boolean, useShapeTolerance: boolean): void;
    };

    BRepPrimAPI_MakeBox_2: new (dx: number, dy: number, dz: number) => BRepPrimAPI_MakeBox;
    BRepPrimAPI_MakeBox_3: new (corner: gp_Pnt, dx: number, dy: number, dz: number) => BRepPrimAPI_MakeBox;
  }

  export interface InitOpenCascadeSettings {
    mainWasm?: string;
    /** Emscripten module overrides: `print` and `printErr` receive OCCT's console output */
    module?: { print?: (line: string) => void; printErr?: (line: string) => void };
  }

  export default function initOpenCascade(settings?: InitOpenCascadeSettings): Promise<OpenCascadeInstance>;
}

/**
 * Face analysis (kernel/features/): surfaces and curves through their adaptors, topology maps,
 * curvature, the STEP reader's transfer results, and the primitives and operations its tests
 * build parts with.
 *
 * Static methods on namespaces declared above (TopoDS, BRep_Tool, BRepTools, BRepGProp) are
 * declared here as separate interfaces, so this block only adds: kernel/features/occt-support.ts
 * views `oc.TopoDS` etc. through them.
 */
declare module "opencascade.js/dist/node.js" {
  export type GeomAbs_SurfaceType = OcEnumValue<"GeomAbs_SurfaceType">;
  export type GeomAbs_CurveType = OcEnumValue<"GeomAbs_CurveType">;
  export type ChFi3d_FilletShape = OcEnumValue<"ChFi3d_FilletShape">;

  export interface gp_Vec extends Deletable {
    X(): number;
    Y(): number;
    Z(): number;
  }
  export interface gp_Pnt2d extends Deletable {
    X(): number;
    Y(): number;
  }
  export interface gp_Ax1 extends Deletable {
    Location(): gp_Pnt;
    Direction(): gp_Dir;
  }
  export interface gp_Ax2 extends Deletable {}
  export interface gp_Ax3 extends Deletable {
    Location(): gp_Pnt;
    Direction(): gp_Dir;
  }
  export interface gp_Cylinder extends Deletable {
    Axis(): gp_Ax1;
    Radius(): number;
  }
  export interface gp_Cone extends Deletable {
    Axis(): gp_Ax1;
    /** the radius in the plane of the cone's location */
    RefRadius(): number;
    /** radians, signed: the radius grows along the axis when positive */
    SemiAngle(): number;
  }
  export interface gp_Sphere extends Deletable {
    Position(): gp_Ax3;
    Radius(): number;
  }
  export interface gp_Torus extends Deletable {
    Axis(): gp_Ax1;
    MajorRadius(): number;
    MinorRadius(): number;
  }
  export interface gp_Circ extends Deletable {
    Axis(): gp_Ax1;
    Radius(): number;
  }

  export interface TopoDS_Edge extends TopoDS_Shape {}
  export interface TopoDS_Wire extends TopoDS_Shape {}
  export interface TopoDS_Vertex extends TopoDS_Shape {}

  export interface GProp_GProps extends Deletable {
    CentreOfMass(): gp_Pnt;
  }

  export interface TopTools_IndexedMapOfShape extends Deletable {
    Size(): number;
    /** 1-based; 0 when the shape (compared with IsSame: orientation ignored) is not in the map */
    FindIndex(shape: TopoDS_Shape): number;
    /** 1-based; a copy */
    FindKey(index: number): TopoDS_Shape;
    /** the shape's index, added at the end if new */
    Add(shape: TopoDS_Shape): number;
  }

  export interface TopoDS_Shape {
    /** a copy of this shape with its location replaced by `location` */
    Located(location: TopLoc_Location, raiseException: boolean): TopoDS_Shape;
    /** a copy of this shape with the opposite orientation */
    Reversed(): TopoDS_Shape;
  }

  /** a face's surface with the face's location applied; (u, v) are the surface's parameters */
  export interface BRepAdaptor_Surface extends Deletable {
    GetType(): GeomAbs_SurfaceType;
    /** with restriction: the bounds of the face's wires in (u, v) */
    FirstUParameter(): number;
    LastUParameter(): number;
    FirstVParameter(): number;
    LastVParameter(): number;
    /** writes the point and the first derivatives into the given objects */
    D1(u: number, v: number, point: gp_Pnt, d1u: gp_Vec, d1v: gp_Vec): void;
    Cylinder(): gp_Cylinder;
    Cone(): gp_Cone;
    Sphere(): gp_Sphere;
    Torus(): gp_Torus;
    AxeOfRevolution(): gp_Ax1;
  }
  /** an edge's 3D curve with the edge's location applied, in the edge's own parameter */
  export interface BRepAdaptor_Curve extends Deletable {
    FirstParameter(): number;
    LastParameter(): number;
    GetType(): GeomAbs_CurveType;
    Circle(): gp_Circ;
    D0(u: number, point: gp_Pnt): void;
    D1(u: number, point: gp_Pnt, tangent: gp_Vec): void;
  }
  /** an edge's curve in a face's (u, v) space (the one matching the edge's orientation on a seam) */
  export interface BRepAdaptor_Curve2d extends Deletable {
    FirstParameter(): number;
    LastParameter(): number;
    D0(u: number, point: gp_Pnt2d): void;
  }
  /** curvatures relative to the surface's normal D1U x D1V (positive: bending towards it) */
  export interface BRepLProp_SLProps extends Deletable {
    IsCurvatureDefined(): boolean;
    MinCurvature(): number;
    MaxCurvature(): number;
  }

  export interface Handle_Standard_Type extends Deletable {
    IsNull(): boolean;
  }
  export interface Standard_Transient {
    /** whether the object's class is `type` or derives from it (IsKind_2, by name, keeps 30 bytes per call) */
    IsKind_1(type: Handle_Standard_Type): boolean;
  }
  /** get() returns the object with its most derived bound class; never delete it */
  export interface Handle_Standard_Transient extends Deletable {
    IsNull(): boolean;
    get(): Standard_Transient;
  }
  export interface Transfer_Binder extends Standard_Transient {
    HasResult(): boolean;
  }
  /** what get() on a Handle_Transfer_Binder is when the result is a shape */
  export interface TransferBRep_BinderOfShape extends Transfer_Binder {
    Result(): TopoDS_Shape;
  }
  export interface Handle_Transfer_Binder extends Deletable {
    IsNull(): boolean;
    get(): Transfer_Binder;
  }
  export interface Transfer_TransientProcess {
    /** entities with a transfer result, 1-based */
    NbMapped(): number;
    Mapped(index: number): Handle_Standard_Transient;
    MapItem(index: number): Handle_Transfer_Binder;
  }
  export interface Handle_Transfer_TransientProcess extends Deletable {
    IsNull(): boolean;
    get(): Transfer_TransientProcess;
  }
  export interface XSControl_TransferReader {
    TransientProcess(): Handle_Transfer_TransientProcess;
  }
  export interface Handle_XSControl_TransferReader extends Deletable {
    IsNull(): boolean;
    get(): XSControl_TransferReader;
  }
  export interface XSControl_WorkSession {
    TransferReader(): Handle_XSControl_TransferReader;
  }
  export interface Handle_XSControl_WorkSession extends Deletable {
    IsNull(): boolean;
    get(): XSControl_WorkSession;
  }
  export interface StepData_StepModel {
    /** the entity's number in the file (#n), 0 when the reader did not record it */
    IdentLabel(entity: Handle_Standard_Transient): number;
    /** the entity's 1-based position in the model (not #n in general) */
    Number(entity: Handle_Standard_Transient): number;
  }
  export interface Handle_StepData_StepModel extends Deletable {
    IsNull(): boolean;
    get(): StepData_StepModel;
  }
  export interface STEPControl_Reader {
    WS(): Handle_XSControl_WorkSession;
    StepModel(): Handle_StepData_StepModel;
  }

  export interface BRepPrimAPI_MakeCylinder extends Deletable {
    Solid(): TopoDS_Solid;
  }
  export interface BRepAlgoAPI_BooleanOperation extends Deletable {
    IsDone(): boolean;
    HasErrors(): boolean;
    Shape(): TopoDS_Shape;
  }
  export interface BRepFilletAPI_MakeFillet extends Deletable {
    Add_2(radius: number, edge: TopoDS_Edge): void;
    Build(progress: Message_ProgressRange): void;
    IsDone(): boolean;
    Shape(): TopoDS_Shape;
  }
  export interface BRepBuilderAPI_NurbsConvert extends Deletable {
    IsDone(): boolean;
    Shape(): TopoDS_Shape;
  }

  export interface TopoDS_Downcasts {
    Edge_1(shape: TopoDS_Shape): TopoDS_Edge;
    Wire_1(shape: TopoDS_Shape): TopoDS_Wire;
  }
  export interface BRep_ToolFeatureStatics {
    Degenerated(edge: TopoDS_Edge): boolean;
  }
  export interface BRepToolsFeatureStatics {
    OuterWire(face: TopoDS_Face): TopoDS_Wire;
  }
  export interface BRepGPropFeatureStatics {
    /** area (Mass) and centroid of faces, Gauss integration of fixed order */
    SurfaceProperties_1(
      shape: TopoDS_Shape,
      properties: GProp_GProps,
      skipShared: boolean,
      useTriangulation: boolean,
    ): void;
    /** the same, adaptive to the relative precision `eps`; returns the error reached */
    SurfaceProperties_2(shape: TopoDS_Shape, properties: GProp_GProps, eps: number, skipShared: boolean): number;
    /** length (Mass) of edges */
    LinearProperties(
      shape: TopoDS_Shape,
      properties: GProp_GProps,
      skipShared: boolean,
      useTriangulation: boolean,
    ): void;
  }

  export interface OpenCascadeInstance {
    GeomAbs_SurfaceType: {
      GeomAbs_Plane: GeomAbs_SurfaceType;
      GeomAbs_Cylinder: GeomAbs_SurfaceType;
      GeomAbs_Cone: GeomAbs_SurfaceType;
      GeomAbs_Sphere: GeomAbs_SurfaceType;
      GeomAbs_Torus: GeomAbs_SurfaceType;
      GeomAbs_BezierSurface: GeomAbs_SurfaceType;
      GeomAbs_BSplineSurface: GeomAbs_SurfaceType;
      GeomAbs_SurfaceOfRevolution: GeomAbs_SurfaceType;
      GeomAbs_SurfaceOfExtrusion: GeomAbs_SurfaceType;
      GeomAbs_OffsetSurface: GeomAbs_SurfaceType;
      GeomAbs_OtherSurface: GeomAbs_SurfaceType;
    };
    GeomAbs_CurveType: {
      GeomAbs_Line: GeomAbs_CurveType;
      GeomAbs_Circle: GeomAbs_CurveType;
      GeomAbs_Ellipse: GeomAbs_CurveType;
      GeomAbs_Hyperbola: GeomAbs_CurveType;
      GeomAbs_Parabola: GeomAbs_CurveType;
      GeomAbs_BezierCurve: GeomAbs_CurveType;
      GeomAbs_BSplineCurve: GeomAbs_CurveType;
      GeomAbs_OffsetCurve: GeomAbs_CurveType;
      GeomAbs_OtherCurve: GeomAbs_CurveType;
    };
    ChFi3d_FilletShape: {
      ChFi3d_Rational: ChFi3d_FilletShape;
      ChFi3d_QuasiAngular: ChFi3d_FilletShape;
      ChFi3d_Polynomial: ChFi3d_FilletShape;
    };

    gp_Pnt_1: new () => gp_Pnt;
    gp_Vec_1: new () => gp_Vec;
    gp_Pnt2d_1: new () => gp_Pnt2d;
    gp_Ax2_3: new (origin: gp_Pnt, direction: gp_Dir) => gp_Ax2;

    TopTools_IndexedMapOfShape_1: new () => TopTools_IndexedMapOfShape;
    /** ADVANCED_FACE and the other faces on a surface */
    StepShape_FaceSurface: { get_type_descriptor(): Handle_Standard_Type };
    TopExp: {
      /** every distinct sub-shape of `type`, numbered from 1 in TopExp_Explorer order of first visit */
      MapShapes_1(shape: TopoDS_Shape, type: TopAbs_ShapeEnum, map: TopTools_IndexedMapOfShape): void;
    };

    BRepAdaptor_Surface_2: new (face: TopoDS_Face, restriction: boolean) => BRepAdaptor_Surface;
    BRepAdaptor_Curve_2: new (edge: TopoDS_Edge) => BRepAdaptor_Curve;
    BRepAdaptor_Curve2d_2: new (edge: TopoDS_Edge, face: TopoDS_Face) => BRepAdaptor_Curve2d;
    /** properties up to derivative order `order` at (u, v); `resolution` in the surface's length */
    BRepLProp_SLProps_1: new (
      surface: BRepAdaptor_Surface,
      u: number,
      v: number,
      order: number,
      resolution: number,
    ) => BRepLProp_SLProps;

    BRepPrimAPI_MakeCylinder_3: new (axes: gp_Ax2, radius: number, height: number) => BRepPrimAPI_MakeCylinder;
    BRepAlgoAPI_Cut_3: new (
      shape: TopoDS_Shape,
      tool: TopoDS_Shape,
      progress: Message_ProgressRange,
    ) => BRepAlgoAPI_BooleanOperation;
    BRepAlgoAPI_Fuse_3: new (
      shape: TopoDS_Shape,
      tool: TopoDS_Shape,
      progress: Message_ProgressRange,
    ) => BRepAlgoAPI_BooleanOperation;
    BRepFilletAPI_MakeFillet: new (shape: TopoDS_Shape, filletShape: ChFi3d_FilletShape) => BRepFilletAPI_MakeFillet;
    BRepBuilderAPI_NurbsConvert_2: new (shape: TopoDS_Shape, copy: boolean) => BRepBuilderAPI_NurbsConvert;
  }
}

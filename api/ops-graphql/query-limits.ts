/**
 * What one GraphQL request may ask of the operator read API, judged before it runs.
 *
 * A document under the 100 kB cap could still hold thousands of aliased connections, each a
 * count over a whole view, or lists of every row: one such request kept the database and the
 * process busy for 46 s. So every operation is walked once, fragments expanded, and measured:
 *
 *   depth       fields nested in fields
 *   aliases     fields renamed with an alias (the way one field is asked for many times)
 *   selections  fields, fragment spreads and inline fragments visited, fragments expanded
 *   rows        for every connection, the product of the page sizes along its path: the rows
 *               the answer can hold
 *
 * Every connection gets a page size: `first` or `last` at most `maxPageSize`, and `first:
 * defaultPageSize` written into the document when it gives neither (or gives null). The walk
 * stops at the first limit passed, so a document whose fragments multiply costs no more to
 * judge than one within the limits.
 */
import {
  getNamedType,
  isCompositeType,
  Kind,
  parse,
  print,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  visit,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "postgraphile/graphql";

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxSelections: number;
  maxRows: number;
  /** `first` of a connection that gives neither `first` nor `last` */
  defaultPageSize: number;
  maxPageSize: number;
}

/**
 * The standard introspection query (GraphiQL's, graphql-js's getIntrospectionQuery) nests 13
 * deep and visits about 120 selections; a dashboard's overview (docs/operations.md) about 40.
 */
export const OPS_QUERY_LIMITS: QueryLimits = {
  maxDepth: 15,
  maxAliases: 20,
  maxSelections: 600,
  maxRows: 20_000,
  defaultPageSize: 100,
  maxPageSize: 1000,
};

export interface GraphqlRequestBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface LimitExceeded {
  limit: "depth" | "aliases" | "selections" | "rows" | "page_size" | "page_size_variable";
  maximum: number;
  found: number;
  message: string;
}

export type LimitedRequest =
  | { outcome: "within"; body: GraphqlRequestBody }
  | { outcome: "exceeded"; exceeded: LimitExceeded }
  /** not a GraphQL document: postgraphile answers it with its own syntax error */
  | { outcome: "unparsable" };

class Exceeded extends Error {
  constructor(readonly detail: LimitExceeded) {
    super(detail.message);
  }
}

const PAGE_ARGUMENTS = ["first", "last"] as const;

/** A page-size argument as the request gives it, variables resolved. */
type PageArgument =
  | { given: "no" }
  | { given: "number"; value: number }
  | { given: "null-variable"; name: string }
  /** not a number: validation refuses it, so it bounds nothing here */
  | { given: "other" };

export function limitGraphqlRequest(
  schema: GraphQLSchema,
  body: GraphqlRequestBody,
  limits: QueryLimits = OPS_QUERY_LIMITS,
): LimitedRequest {
  let document: DocumentNode;
  try {
    document = parse(body.query, { noLocation: true });
  } catch {
    return { outcome: "unparsable" };
  }
  const variables = { ...(body.variables ?? {}) };
  try {
    const judged = judgeDocument(schema, document, variables, limits);
    const query =
      judged.needsDefaultPage.size === 0
        ? body.query
        : print(withDefaultPages(document, judged.needsDefaultPage, limits));
    for (const name of judged.nullPageVariables) variables[name] = limits.defaultPageSize;
    return { outcome: "within", body: { ...body, query, variables } };
  } catch (error) {
    if (error instanceof Exceeded) return { outcome: "exceeded", exceeded: error.detail };
    throw error;
  }
}

interface Judgement {
  /** connection fields given no page size: `first: default` is added */
  needsDefaultPage: Set<FieldNode>;
  /** variables used only as page sizes and given null: they become the default */
  nullPageVariables: Set<string>;
}

function judgeDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  limits: QueryLimits,
): Judgement {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const pageOnly = variablesUsedOnlyAsPageSizes(document);
  const judgement: Judgement = { needsDefaultPage: new Set(), nullPageVariables: new Set() };

  for (const operation of operations) {
    const root =
      operation.operation === "query"
        ? schema.getQueryType()
        : operation.operation === "mutation"
          ? schema.getMutationType()
          : schema.getSubscriptionType();
    if (!root) continue;
    const variableValue = variableValues(operation, variables);
    const tally = { selections: 0, aliases: 0, rows: 0 };
    const spreading = new Set<string>();

    const pageArgument = (field: FieldNode, name: string): PageArgument => {
      const argument = field.arguments?.find((a) => a.name.value === name);
      if (!argument) return { given: "no" };
      const value = argument.value;
      if (value.kind === Kind.NULL) return { given: "no" };
      if (value.kind === Kind.INT) return { given: "number", value: Number(value.value) };
      if (value.kind === Kind.VARIABLE) {
        const resolved = variableValue(value.name.value);
        if (resolved === null || resolved === undefined) return { given: "null-variable", name: value.name.value };
        if (typeof resolved === "number" && Number.isInteger(resolved)) return { given: "number", value: resolved };
      }
      return { given: "other" };
    };

    /** the rows one evaluation of this connection may return; records the rewrite it needs */
    const pageSize = (field: FieldNode): number => {
      const bounds: number[] = [];
      const nullVariables: string[] = [];
      for (const name of PAGE_ARGUMENTS) {
        const argument = pageArgument(field, name);
        if (argument.given === "number") {
          if (argument.value > limits.maxPageSize) {
            throw new Exceeded({
              limit: "page_size",
              maximum: limits.maxPageSize,
              found: argument.value,
              message: `${field.name.value}(${name}: ${argument.value}) asks for more than ${limits.maxPageSize} rows: page through it with first/after`,
            });
          }
          bounds.push(argument.value);
        }
        if (argument.given === "null-variable") nullVariables.push(argument.name);
        if (argument.given === "other") bounds.push(limits.maxPageSize);
      }
      if (bounds.length > 0) return Math.max(0, Math.min(...bounds));
      if (nullVariables.length === 0) {
        judgement.needsDefaultPage.add(field);
        return limits.defaultPageSize;
      }
      for (const name of nullVariables) {
        if (!pageOnly.has(name)) {
          throw new Exceeded({
            limit: "page_size_variable",
            maximum: limits.maxPageSize,
            found: 0,
            message: `$${name} is null where ${field.name.value} takes its page size, and is used elsewhere too: give it a number up to ${limits.maxPageSize}`,
          });
        }
        judgement.nullPageVariables.add(name);
      }
      return limits.defaultPageSize;
    };

    const count = (
      what: "selections" | "aliases" | "rows",
      by: number,
      maximum: number,
      message: (found: number) => string,
    ) => {
      tally[what] += by;
      if (tally[what] > maximum)
        throw new Exceeded({ limit: what, maximum, found: tally[what], message: message(tally[what]) });
    };

    const walk = (
      selectionSet: SelectionSetNode,
      parent: GraphQLCompositeType | undefined,
      depth: number,
      multiplier: number,
    ): void => {
      for (const selection of selectionSet.selections) {
        count(
          "selections",
          1,
          limits.maxSelections,
          () =>
            `the query selects more than ${limits.maxSelections} fields and fragments (fragments counted where they are spread)`,
        );
        if (selection.kind === Kind.FIELD) {
          if (selection.alias && selection.alias.value !== selection.name.value) {
            count(
              "aliases",
              1,
              limits.maxAliases,
              (found) => `the query has ${found} or more aliases; at most ${limits.maxAliases} are allowed`,
            );
          }
          if (depth + 1 > limits.maxDepth) {
            throw new Exceeded({
              limit: "depth",
              maximum: limits.maxDepth,
              found: depth + 1,
              message: `the query nests fields ${depth + 1} deep; at most ${limits.maxDepth} are allowed`,
            });
          }
          const definition = parent ? fieldDefinition(schema, parent, selection.name.value) : undefined;
          let rows = multiplier;
          if (definition && isConnection(definition)) {
            rows = multiplier * pageSize(selection);
            count(
              "rows",
              rows,
              limits.maxRows,
              (found) =>
                `the query can return ${found} rows or more (the page sizes multiplied along each path, summed); at most ${limits.maxRows} are allowed: ask for smaller pages`,
            );
          }
          if (selection.selectionSet) {
            const type = definition ? getNamedType(definition.type) : undefined;
            walk(selection.selectionSet, type && isCompositeType(type) ? type : undefined, depth + 1, rows);
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          walk(selection.selectionSet, type && isCompositeType(type) ? type : undefined, depth, multiplier);
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          // an unknown or cyclic spread is for validation to refuse
          if (!fragment || spreading.has(name)) continue;
          spreading.add(name);
          const type = schema.getType(fragment.typeCondition.name.value);
          walk(fragment.selectionSet, type && isCompositeType(type) ? type : undefined, depth, multiplier);
          spreading.delete(name);
        }
      }
    };
    walk(operation.selectionSet, root, 0, 1);
  }
  return judgement;
}

function fieldDefinition(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return "getFields" in parent ? parent.getFields()[name] : undefined;
}

/** postgraphile's connections take first and last; no other field of the schema does */
function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  return PAGE_ARGUMENTS.every((name) => field.args.some((argument) => argument.name === name));
}

/** an operation's variables: the request's values, else the definitions' defaults */
function variableValues(operation: OperationDefinitionNode, given: Record<string, unknown>): (name: string) => unknown {
  const defaults = new Map<string, ValueNode>();
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue) defaults.set(definition.variable.name.value, definition.defaultValue);
  }
  return (name) => {
    if (Object.hasOwn(given, name)) return given[name];
    const fallback = defaults.get(name);
    if (fallback?.kind === Kind.INT) return Number(fallback.value);
    return undefined;
  };
}

/** variables whose every use is the value of a first or last argument */
function variablesUsedOnlyAsPageSizes(document: DocumentNode): Set<string> {
  const asPage = new Set<string>();
  const elsewhere = new Set<string>();
  visit(document, {
    VariableDefinition: () => false,
    Argument(node: ArgumentNode) {
      if (node.value.kind === Kind.VARIABLE && (PAGE_ARGUMENTS as readonly string[]).includes(node.name.value)) {
        asPage.add(node.value.name.value);
        return false;
      }
      return undefined;
    },
    Variable(node) {
      elsewhere.add(node.name.value);
    },
  });
  for (const name of elsewhere) asPage.delete(name);
  return asPage;
}

function withDefaultPages(document: DocumentNode, fields: Set<FieldNode>, limits: QueryLimits): DocumentNode {
  const first: ArgumentNode = {
    kind: Kind.ARGUMENT,
    name: { kind: Kind.NAME, value: "first" },
    value: { kind: Kind.INT, value: String(limits.defaultPageSize) },
  };
  return visit(document, {
    Field(node) {
      if (!fields.has(node)) return undefined;
      const others = (node.arguments ?? []).filter(
        (argument) => argument.name.value !== "first" && argument.name.value !== "last",
      );
      return { ...node, arguments: [...others, first] };
    },
  });
}

type Json = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function exampleText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** An optional parameter without its example values, which move into the description. */
function withoutExample(parameter: Json): Json {
  if (parameter.required === true) return parameter;
  const schema = isObject(parameter.schema) ? parameter.schema : undefined;
  const example = parameter.example ?? schema?.example;
  if (example === undefined && parameter.examples === undefined) return parameter;
  const { example: _dropped, examples: _droppedExamples, ...rest } = parameter;
  const description = [parameter.description, example === undefined ? undefined : `Example: \`${exampleText(example)}\``].filter(Boolean).join("\n\n");
  const plainSchema = schema ? Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "example")) : undefined;
  return { ...rest, ...(plainSchema ? { schema: plainSchema } : {}), ...(description ? { description } : {}) };
}

function parameterList(value: unknown): unknown {
  return Array.isArray(value) ? value.map((parameter) => (isObject(parameter) ? withoutExample(parameter) : parameter)) : value;
}

/**
 * Swagger UI fills "Try it out" fields with the parameters' examples, so a plain
 * Execute would send filters nobody chose. The document it shows keeps each
 * optional parameter's example in the description instead; required ones keep
 * theirs, since the call needs a value anyway.
 */
export function withoutOptionalParameterExamples<T extends Json>(spec: T): T {
  const paths = isObject(spec.paths) ? spec.paths : {};
  const components = isObject(spec.components) ? spec.components : undefined;
  const sharedParameters = components && isObject(components.parameters) ? components.parameters : undefined;
  return {
    ...spec,
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, item]) => {
        if (!isObject(item)) return [path, item];
        const operations = Object.entries(item).map(([key, value]) =>
          key === "parameters"
            ? [key, parameterList(value)]
            : METHODS.includes(key) && isObject(value)
              ? [key, { ...value, parameters: parameterList(value.parameters) }]
              : [key, value],
        );
        return [path, Object.fromEntries(operations.map(([key, value]) => [key, value]).filter(([, value]) => value !== undefined))];
      }),
    ),
    ...(components && sharedParameters
      ? {
          components: {
            ...components,
            parameters: Object.fromEntries(Object.entries(sharedParameters).map(([name, p]) => [name, isObject(p) ? withoutExample(p) : p])),
          },
        }
      : {}),
  };
}

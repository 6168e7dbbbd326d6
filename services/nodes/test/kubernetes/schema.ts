import type { KubernetesClientModule } from '../../src/drivers/kubernetes';

interface Attribute {
  name: string;
  type: string;
}

type ModelClass = { getAttributeTypeMap(): Attribute[] };

/**
 * Fields of `value` that the Kubernetes API does not define for `type` (a model of the official
 * client, generated from the API's OpenAPI schema), or whose value has the wrong JSON type. The
 * client drops unknown fields silently when it sends an object, so a typo would vanish instead of failing.
 */
export function schemaProblems(k8s: KubernetesClientModule, value: unknown, type: string, at = '$'): string[] {
  if (value === undefined) return [];
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  const array = /^Array<(.+)>$/.exec(type);
  if (array?.[1]) {
    if (!Array.isArray(value)) return [`${at}: expected a list`];
    return value.flatMap((item, index) => schemaProblems(k8s, item, array[1] as string, `${at}[${index}]`));
  }
  if (map?.[1]) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: expected a map`];
    return Object.entries(value).flatMap(([key, item]) => schemaProblems(k8s, item, map[1] as string, `${at}.${key}`));
  }
  switch (type) {
    case 'string':
      return typeof value === 'string' ? [] : [`${at}: expected a string`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: expected a number`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: expected a boolean`];
    case 'IntOrString':
      return typeof value === 'string' || typeof value === 'number' ? [] : [`${at}: expected a number or a string`];
    case 'Date':
      return typeof value === 'string' || value instanceof Date ? [] : [`${at}: expected a date`];
    case 'any':
    case 'object':
      return [];
  }
  const model = (k8s as unknown as Record<string, ModelClass | undefined>)[type];
  if (!model?.getAttributeTypeMap) return [`${at}: unknown type ${type}`];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: expected an object (${type})`];
  const attributes = model.getAttributeTypeMap();
  return Object.entries(value).flatMap(([key, item]) => {
    const attribute = attributes.find((candidate) => candidate.name === key);
    return attribute ? schemaProblems(k8s, item, attribute.type, `${at}.${key}`) : [`${at}.${key}: not a field of ${type}`];
  });
}

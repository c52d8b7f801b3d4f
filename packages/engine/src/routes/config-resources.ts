import { access } from '../auth/roles.ts';
import { ConfigResource } from '../resources/config-resource.ts';
import { resourceKinds } from '../resources/kinds.ts';
import type { SettingKey } from '../config/settings.ts';
import type { RouteModule } from './route-module.ts';
import { idParams, listOf, noContent, responseShape } from '@weir/contract';
import { sendList } from './list-reply.ts';
import { handlerCheckedBody } from '../http/handler-checked-body.ts';
import { changeOf, registerVersionRoutes } from './record-versions.ts';

type ById = { Params: { id: string } };

/**
 * Spec: Tasks, pipelines, topologies, rules — the same six routes for each kind, from one
 * definition. Reads are open to `user`, writes to `admin` (architecture: Security model). Every
 * write takes an optional change note (header X-Weir-Change-Note) for the version it stores; the
 * versions' own routes are ./record-versions.ts.
 */
export const configResourceRoutes: RouteModule = (app, ctx) => {
  for (const kind of resourceKinds) {
    // The count limit the registry names for the kind (rules: weir.rules.max-count).
    const setting = kind.countLimitSetting as SettingKey | undefined;
    const limit = setting === undefined ? undefined : { max: Number(ctx.settings.get(setting)), setting };
    const resource = new ConfigResource(kind, ctx.store, limit);
    const collection = `/api/${kind.path}`;
    const read = { config: { access: access.member } };
    // record bodies: checked once, by the resource on save (earlier forms become the latest form first)
    const write = { config: { access: access.admin }, ...handlerCheckedBody };
    const record = responseShape(kind.schema);
    const records = listOf(kind.schema);

    // The collection is serialised once per change; `If-None-Match` with its ETag → 304 (docs/api.md).
    app.get(collection, { ...read, schema: { response: { 200: records, 304: noContent } } }, async (request, reply) =>
      sendList(request, reply, resource.serialisedList()),
    );

    app.get<ById>(
      `${collection}/:id`,
      { ...read, schema: { params: idParams, response: { 200: record } } },
      async (request) => resource.get(request.params.id),
    );

    app.post(
      collection,
      { ...write, schema: { body: kind.schema, response: { 201: record } } },
      async (request, reply) => {
        const created = await resource.create(request.body, changeOf(request));
        return reply.code(201).header('location', collection).send(created);
      },
    );

    app.put<ById>(
      `${collection}/:id`,
      { ...write, schema: { params: idParams, body: kind.schema, response: { 200: record } } },
      async (request) => resource.update(request.params.id, request.body, changeOf(request)),
    );

    app.delete<ById>(
      `${collection}/:id`,
      { ...write, schema: { params: idParams, response: { 204: noContent } } },
      async (request, reply) => {
        await resource.delete(request.params.id, changeOf(request));
        return reply.code(204).send();
      },
    );

    app.post(
      `/api/bulk/${kind.path}`,
      { ...write, schema: { body: { type: 'array', items: kind.schema }, response: { 200: records } } },
      async (request) => resource.bulk(request.body, changeOf(request)),
    );

    registerVersionRoutes(app, resource);
  }
};

import type { Metadata } from "next";
import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
import { DataTable } from "@/components/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { listUsers } from "@/lib/accounts/users";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function AdminUsersPage() {
  const admin = await requireAdmin("/admin/users");
  const users = await listUsers({ db: db() });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Users and roles</h1>
      <DataTable
        caption="Users"
        minWidth="36rem"
        rows={users}
        rowKey={(user) => user.id}
        columns={[
          { header: "Email", cell: (user) => user.email },
          { header: "Name", cell: (user) => user.name },
          { header: "Role", cell: (user) => user.role },
          { header: "Sign-in", cell: (user) => (user.disabledAt ? "Disabled" : user.ssoSubject ? "Global SSO" : "Password") },
          {
            header: "Actions",
            hideHeader: true,
            cell: (user) => (
              <div className="flex flex-wrap gap-2">
                {user.id === admin.id ? (
                  <span className="text-slate-600">You</span>
                ) : (
                  <>
                    <AdminAction
                      action={`/api/portal/admin/users/${user.id}`}
                      body={{ role: user.role === "ADMIN" ? "DEVELOPER" : "ADMIN" }}
                      label={user.role === "ADMIN" ? `Make ${user.email} a developer` : `Make ${user.email} an admin`}
                    />
                    <AdminAction
                      action={`/api/portal/admin/users/${user.id}`}
                      body={{ disabled: !user.disabledAt }}
                      label={user.disabledAt ? `Enable ${user.email}` : `Disable ${user.email}`}
                    />
                  </>
                )}
              </div>
            ),
          },
        ]}
      />
      <section aria-labelledby="new-user" className="space-y-2">
        <h2 id="new-user" className="text-lg font-semibold">
          New user
        </h2>
        <AdminForm
          action="/api/portal/admin/users"
          submitLabel="Create user"
          successMessage="User created."
          fields={[
            { name: "email", label: "Email", type: "email" },
            { name: "name", label: "Name" },
            { name: "password", label: "Password", type: "password", hint: "At least 12 characters; share it with the user out of band." },
            {
              name: "role",
              label: "Role",
              type: "select",
              options: [
                { value: "DEVELOPER", label: "Developer" },
                { value: "ADMIN", label: "Admin" },
              ],
            },
          ]}
        />
      </section>
    </div>
  );
}

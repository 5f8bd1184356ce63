import type { Metadata } from "next";
import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
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
      <div className="relative overflow-x-auto">
        <table className="w-full min-w-[36rem] border-collapse bg-white text-left text-sm">
          <caption className="sr-only">Users</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="p-2">
                Email
              </th>
              <th scope="col" className="p-2">
                Name
              </th>
              <th scope="col" className="p-2">
                Role
              </th>
              <th scope="col" className="p-2">
                Sign-in
              </th>
              <th scope="col" className="p-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id} className="border-b border-slate-200">
                <td className="p-2">{user.email}</td>
                <td className="p-2">{user.name}</td>
                <td className="p-2">{user.role}</td>
                <td className="p-2">{user.disabledAt ? "Disabled" : user.ssoSubject ? "Global SSO" : "Password"}</td>
                <td className="flex flex-wrap gap-2 p-2">
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
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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

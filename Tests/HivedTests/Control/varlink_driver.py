"""Drives hived's control socket with the independent `varlink` client from PyPI.

    varlink_driver.py SOCKET call METHOD [JSON]      one call; prints {"reply": …} or {"error": …, "parameters": …}
    varlink_driver.py SOCKET describe                GetInfo, then parses every interface's description
    varlink_driver.py SOCKET subscribe EVENT         prints Subscribe replies, one per line, until EVENT was delivered

Every output line is one JSON object. Methods are called through the client's own
proxies (built from GetInterfaceDescription), so a description the client cannot parse
fails here.
"""
import json
import sys

import varlink


def emit(value):
    print(json.dumps(value), flush=True)


def main():
    address = "unix:" + sys.argv[1]
    command = sys.argv[2]
    with varlink.Client(address) as client:
        if command == "describe":
            interfaces = client.get_interfaces()
            described = {}
            for name in interfaces:
                interface = client.get_interface(name)
                described[name] = sorted(interface.members.keys())
            emit({"info": client.info, "interfaces": described})
            return
        if command == "call":
            method = sys.argv[3]
            parameters = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
            interface, name = method.rsplit(".", 1)
            try:
                with client.open(interface) as connection:
                    emit({"reply": getattr(connection, name)(**parameters)})
            except varlink.VarlinkError as error:
                emit({"error": error.error(), "parameters": error.parameters()})
            return
        if command == "subscribe":
            until = sys.argv[3]
            with client.open("io.hivekit.Daemon") as connection:
                for reply in connection.Subscribe(_more=True):
                    emit({"notice": reply})
                    if reply.get("event") == until and "module" not in reply:
                        break
            return
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    main()

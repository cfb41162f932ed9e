import CV4L2

/// Finds flash LED subdevices that belong to a camera through the media controller: the media
/// graph that has an interface for the camera's video node, and its entities whose function is
/// "flash", reached through their subdevice interface.
enum MediaTopology {
    static func flashNodes(for videoPath: String, host: any VideoDeviceHost) -> [String] {
        guard let videoNumber = host.deviceNumber(of: videoPath) else { return [] }
        for mediaPath in host.nodes(prefix: "media") {
            guard case .success(let io) = host.open(mediaPath, kind: .media),
                  let graph = Graph(io: io), graph.hasInterface(videoNumber) else { continue }
            return graph.flashDeviceNumbers().compactMap { host.path(of: $0) }
        }
        return []
    }

    /// One read of MEDIA_IOC_G_TOPOLOGY: entities, interfaces and links.
    struct Graph {
        var entities: [media_v2_entity]
        var interfaces: [media_v2_interface]
        var links: [media_v2_link]

        init?(io: any VideoDeviceIO) {
            // First call: the counts; second call: the arrays (pads are not needed).
            var counts = media_v2_topology()
            guard (try? io.call(sc_MEDIA_IOC_G_TOPOLOGY, &counts)) != nil else { return nil }
            entities = Array(repeating: media_v2_entity(), count: Int(counts.num_entities))
            interfaces = Array(repeating: media_v2_interface(), count: Int(counts.num_interfaces))
            links = Array(repeating: media_v2_link(), count: Int(counts.num_links))
            let read: Bool = entities.withUnsafeMutableBufferPointer { entityBuffer in
                interfaces.withUnsafeMutableBufferPointer { interfaceBuffer in
                    links.withUnsafeMutableBufferPointer { linkBuffer in
                        var topology = media_v2_topology()
                        topology.num_entities = counts.num_entities
                        topology.ptr_entities = Self.address(entityBuffer.baseAddress)
                        topology.num_interfaces = counts.num_interfaces
                        topology.ptr_interfaces = Self.address(interfaceBuffer.baseAddress)
                        topology.num_links = counts.num_links
                        topology.ptr_links = Self.address(linkBuffer.baseAddress)
                        return (try? io.call(sc_MEDIA_IOC_G_TOPOLOGY, &topology)) != nil
                    }
                }
            }
            guard read else { return nil }
        }

        private static func address<T>(_ pointer: UnsafeMutablePointer<T>?) -> UInt64 {
            UInt64(UInt(bitPattern: pointer))
        }

        func hasInterface(_ number: DeviceNumber) -> Bool {
            interfaces.contains { $0.devnode.major == number.major && $0.devnode.minor == number.minor }
        }

        /// The device numbers of the subdevice interfaces of flash entities.
        func flashDeviceNumbers() -> [DeviceNumber] {
            let flashIDs = Set(entities.filter { $0.function == UInt32(sc_MEDIA_ENT_F_FLASH) }.map(\.id))
            let interfaceLinks = links.filter {
                $0.flags & UInt32(truncatingIfNeeded: sc_MEDIA_LNK_FL_LINK_TYPE) == UInt32(sc_MEDIA_LNK_FL_INTERFACE_LINK) && flashIDs.contains($0.sink_id)
            }
            return interfaceLinks.compactMap { link in
                interfaces.first { $0.id == link.source_id && $0.intf_type == UInt32(sc_MEDIA_INTF_T_V4L_SUBDEV) }
                    .map { DeviceNumber(major: $0.devnode.major, minor: $0.devnode.minor) }
            }
        }
    }
}
